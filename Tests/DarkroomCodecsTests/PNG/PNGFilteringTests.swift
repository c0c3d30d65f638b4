import DarkroomCore
import Testing

@testable import DarkroomCodecs

@Suite("PNG row filtering")
struct PNGFilteringTests {
    @Test("The Paeth predictor matches the PNG specification's definition for sampled neighbours")
    func paethMatchesSpecification() {
        for a in stride(from: 0, through: 255, by: 5) {
            for b in stride(from: 0, through: 255, by: 3) {
                for c in stride(from: 0, through: 255, by: 7) {
                    // RFC 2083 §6.6, written out as the specification states it.
                    let p = a + b - c
                    let pa = abs(p - a)
                    let pb = abs(p - b)
                    let pc = abs(p - c)
                    let expected = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                    let got = PNGRowFilters.predictPaeth(UInt8(a), UInt8(b), UInt8(c))
                    if Int(got) != expected {
                        Issue.record("Paeth(\(a), \(b), \(c)) = \(got), want \(expected)")
                        return
                    }
                }
            }
        }
    }

    @Test("Given a flat, text-like image, the encoder stores rows unfiltered; given a photo-like one, it filters them")
    func strategyFollowsContent() throws {
        let screen = try Self.screenLikeImage(width: 400, height: 300)
        let photo = try Self.photoLikeImage(width: 400, height: 300)
        #expect(Self.strategy(for: screen) == .none)
        #expect(Self.strategy(for: photo) == .adaptive)
        // Each round-trips exactly, whichever strategy it took.
        for image in [screen, photo] {
            let png = try PNGEncoder().encode(image, options: EncodeOptions())
            let decoded = try PNGDecoder().decode(EncodedImage(bytes: png, sourceName: "out.png"), options: DecodeOptions())
            #expect(PWGTestKit.samePixels(decoded.bitmap, image))
        }
    }

    @Test(
        "Given odd sizes, with and without alpha, when the rows are filtered in 1, 2, 3 or 7 bands, then the file is the same bytes",
        arguments: [(131, 67, true), (131, 67, false), (1, 300, false), (300, 9, true)])
    func bandsGiveIdenticalBytes(width: Int, height: Int, opaque: Bool) throws {
        let image = try opaque ? Self.photoLikeImage(width: width, height: height) : PWGTestKit.translucentImage(width: width, height: height)
        let files = try [1, 2, 3, 7].map { bands in
            try RowBands.$forcedCount.withValue(bands) { try PNGEncoder().encode(image, options: EncodeOptions()) }
        }
        #expect(Set(files).count == 1)
        let decoded = try PNGDecoder().decode(EncodedImage(bytes: files[0], sourceName: "out.png"), options: DecodeOptions())
        #expect(PWGTestKit.samePixels(decoded.bitmap, image))
    }

    @Test("Given a large output, the image data is split into IDAT chunks of at most 256 KiB")
    func imageDataChunks() throws {
        let image = try Self.photoLikeImage(width: 800, height: 600)
        let png = try PNGEncoder(compressionLevel: 1).encode(image, options: EncodeOptions())
        let chunks = PWGContainers.pngChunks(png)
        #expect(chunks.first == "IHDR" && chunks.last == "IEND")
        #expect(chunks.filter { $0 == "IDAT" }.count > 1)
    }

    /// A fixed scramble of two integers, so the test images are the same on every run.
    private static func hash(_ a: Int, _ b: Int) -> UInt64 {
        var z = UInt64(truncatingIfNeeded: a) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: b) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 31)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 29)
    }

    private static func strategy(for bitmap: Bitmap) -> PNGFilterStrategy {
        let source = PNGScanlineSource(bitmap: bitmap, opaque: true)
        return bitmap.withUnsafeBytes { PNGFilterStrategy.choose(for: source, pixels: $0.baseAddress!) }
    }

    /// Flat panels with lines of repeated two-colour glyphs: what screenshots look like.
    static func screenLikeImage(width: Int, height: Int) throws -> Bitmap {
        let glyphs = (0..<24).map { g in (0..<(6 * 9)).map { bit in hash(g, bit) % 3 == 0 } }
        let text = (0..<(width / 7 * height / 12)).map { Int(hash($0, 99) % 24) }
        return try Bitmap(width: width, height: height, isOpaque: true) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    let panel = x < width / 4 ? (40, 44, 52) : (250, 250, 250)
                    var color = panel
                    let column = x / 7
                    let line = y / 12
                    if x % 7 < 6, y % 12 < 9, x >= width / 4 + 8 {
                        let glyph = glyphs[text[(line * (width / 7) + column) % text.count]]
                        if glyph[(y % 12) * 6 + x % 7] { color = (30, 30, 30) }
                    }
                    let i = y * rowBytes + x * 4
                    bytes[i] = UInt8(color.0)
                    bytes[i + 1] = UInt8(color.1)
                    bytes[i + 2] = UInt8(color.2)
                    bytes[i + 3] = 255
                }
            }
        }
    }

    /// Smooth gradients with sensor-like noise: every pixel differs from its neighbours.
    static func photoLikeImage(width: Int, height: Int) throws -> Bitmap {
        let smooth = try PWGTestKit.smoothImage(width: width, height: height)
        return try Bitmap(width: width, height: height, isOpaque: true) { bytes, rowBytes in
            smooth.withUnsafeBytes { source in
                for i in 0..<(rowBytes * height) {
                    let noise = Int(hash(i, 5) % 9) - 4
                    bytes[i] = i % 4 == 3 ? 255 : UInt8(clamping: Int(source[i]) + noise)
                }
            }
        }
    }
}
