import Testing

@testable import DarkroomCodecs

@Suite("EXIF rewriting for kept metadata")
struct EXIFRewriterTests {
    /// A camera-like block: orientation 6, artist, copyright, make, an Exif IFD with a MakerNote,
    /// a GPS IFD and an IFD1 thumbnail.
    static let camera = TIFFFixture.block(
        [
            (0x010F, .ascii("Canon")), (0x0112, .short(6)), (0x013B, .ascii("Ann Example")),
            (0x8298, .ascii("(c) Ann Example 2026")),
            (0x8769, .ifd([(0x829A, .rational(1, 250)), (0x927C, .undefined(Array(repeating: 7, count: 40))), (0xA002, .short(4000))])),
            (0x8825, .ifd([(0x0001, .ascii("N")), (0x0002, .rational(48, 1))])),
        ],
        ifd1: [(0x0201, .short(1000)), (0x0202, .short(5000))])

    @Test("Given a camera's EXIF, when rewritten, then orientation is 1 and the thumbnail, MakerNote, GPS and stale size are gone")
    func rewritesCameraBlock() throws {
        let out = try #require(EXIFRewriter.rewrite(Self.camera, keepGPS: false))
        let ifd0 = TIFFFixture.tags(out)
        #expect(ifd0.tags[0x0112] == [1, 0])
        #expect(ifd0.tags[0x010F] == Array("Canon".utf8) + [0])
        #expect(ifd0.tags[0x8298] == Array("(c) Ann Example 2026".utf8) + [0])
        #expect(ifd0.tags[0x8825] == nil)
        #expect(ifd0.next == 0, "no IFD1")
        let exif = TIFFFixture.tags(out, at: try #require(TIFFFixture.pointer(ifd0.tags[0x8769]))).tags
        #expect(exif[0x829A] == TIFFFixture.le32(1) + TIFFFixture.le32(250))
        #expect(exif[0x927C] == nil && exif[0xA002] == nil)
        #expect(out.withUnsafeBufferPointer { EXIFOrientationReader.orientation(tiff: $0) } == .up)
    }

    @Test("With gps, the GPS IFD is kept")
    func keepsGPS() throws {
        let out = try #require(EXIFRewriter.rewrite(Self.camera, keepGPS: true))
        let ifd0 = TIFFFixture.tags(out)
        let gps = TIFFFixture.tags(out, at: try #require(TIFFFixture.pointer(ifd0.tags[0x8825]))).tags
        #expect(gps[0x0001] == Array("N".utf8) + [0])
        #expect(gps[0x0002] == TIFFFixture.le32(48) + TIFFFixture.le32(1))
    }

    @Test("copyright keeps only Copyright and Artist, and nothing when the source has neither")
    func copyrightOnly() throws {
        let out = try #require(EXIFRewriter.copyrightOnly(Self.camera))
        #expect(Set(TIFFFixture.tags(out).tags.keys) == [0x013B, 0x8298])
        #expect(EXIFRewriter.copyrightOnly(TIFFFixture.block([(0x010F, .ascii("Canon"))])) == nil)
    }

    @Test("Hostile blocks are dropped or bounded: bad header, IFD past the end, a huge count, self-pointing IFDs, truncation")
    func hostileBlocks() {
        #expect(EXIFRewriter.rewrite([], keepGPS: false) == nil)
        #expect(EXIFRewriter.rewrite(Array("XX*\0\u{8}\0\0\0".utf8), keepGPS: false) == nil)
        #expect(EXIFRewriter.rewrite([0x49, 0x49, 42, 0, 0xFF, 0xFF, 0, 0], keepGPS: false) == nil)
        // 65535 entries declared in a 20-byte block: only what fits is read (nothing here).
        #expect(EXIFRewriter.rewrite([0x49, 0x49, 42, 0, 8, 0, 0, 0, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 10), keepGPS: false) == nil)
        // An Exif pointer to IFD0 itself: followed once, at its fixed depth, then ignored.
        var loop = TIFFFixture.block([(0x0112, .short(3)), (0x8769, .short(0))])
        loop[8 + 2 + 12 + 2] = 4  // the pointer entry becomes LONG …
        loop.replaceSubrange((8 + 2 + 12 + 8)..<(8 + 2 + 12 + 12), with: TIFFFixture.le32(8))  // … to offset 8
        let out = EXIFRewriter.rewrite(loop, keepGPS: true)
        #expect(out.map { TIFFFixture.tags($0).tags[0x0112] } == [1, 0])
        // Every prefix of a real block is dropped or rewritten, never a crash.
        for length in 0..<Self.camera.count {
            _ = EXIFRewriter.rewrite(Array(Self.camera.prefix(length)), keepGPS: true)
            _ = EXIFRewriter.copyrightOnly(Array(Self.camera.prefix(length)))
        }
        // An entry whose value lies past the end is dropped, the rest kept.
        var broken = Self.camera
        let entry = 8 + 2 + 12 * 3  // the Copyright entry
        broken.replaceSubrange((entry + 8)..<(entry + 12), with: TIFFFixture.le32(0xFFFF_FFF0))
        let kept = TIFFFixture.tags(EXIFRewriter.rewrite(broken, keepGPS: false) ?? []).tags
        #expect(kept[0x8298] == nil && kept[0x013B] != nil)
    }

    @Test("Given 400 tags that all point at one 60 KB value, the rewrite stops at the result's budget and keeps nothing")
    func sharedValueBomb() {
        var tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 0x90, 0x01]  // IFD0 with 400 entries
        let valueOffset = UInt32(8 + 2 + 400 * 12 + 4)
        for index in 0..<400 {
            tiff += [UInt8((0x1000 + index) & 0xFF), UInt8((0x1000 + index) >> 8), 7, 0] + TIFFFixture.le32(60_000) + TIFFFixture.le32(valueOffset)
        }
        tiff += [0, 0, 0, 0] + [UInt8](repeating: 0, count: 60_000)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(EXIFRewriter.rewrite(tiff, keepGPS: false) == nil)
        #expect(clock.now - start < .seconds(1))
    }

    @Test("A block over the APP1 limit is dropped")
    func oversized() {
        let big = TIFFFixture.block([(0x010E, .undefined(Array(repeating: 65, count: ImageMetadata.maximumEXIFBytes)))])
        #expect(ImageMetadata(exif: big).prepared(keeping: .exif).exif == nil)
    }
}
