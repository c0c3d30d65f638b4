import CTurboJPEG
import DarkroomChains
import DarkroomCore
import Testing

@testable import DarkroomCodecs

/// A progressive JPEG decoded at 1/8 from its pruned scans gives TurboJPEG's pixels for the whole
/// file, byte for byte, at every chroma subsampling; files it cannot prove equal are left alone.
@Suite("JPEG: scans unused at 1/8 scale")
struct JPEGEighthScaleScansTests {
    static let subsamplings: [(name: String, value: TJSAMP)] = [
        ("4:4:4", TJSAMP_444), ("4:2:2", TJSAMP_422), ("4:2:0", TJSAMP_420), ("4:4:0", TJSAMP_440),
        ("4:1:1", TJSAMP_411), ("grey", TJSAMP_GRAY),
    ]

    @Test(
        "Pruned scans decode at 1/8 to exactly the whole file's pixels",
        arguments: subsamplings.indices, [PixelSize(width: 203, height: 157), PixelSize(width: 64, height: 48)])
    func identicalPixels(subsampling: Int, size: PixelSize) throws {
        let jpeg = try Self.progressiveJPEG(size: size, subsampling: Self.subsamplings[subsampling].value)
        let pruned = try #require(jpeg.withUnsafeBufferPointer { JPEGEighthScaleScans.pruned($0) })
        #expect(pruned.count < jpeg.count)
        #expect(try Self.decodeAtEighth(pruned) == Self.decodeAtEighth(jpeg))
    }

    @Test("The decoder prunes a progressive fixture at 1/8 and gives the untouched file's pixels")
    func decoderUsesIt() throws {
        let bytes = try JPEGTestKit.fixture("scene-progressive.jpg")
        let decoded = try JPEGTestKit.decode("scene-progressive.jpg", hint: DecodeHint(box: PixelSize(width: 4, height: 4), mode: .fit))
        #expect(decoded.bitmap.sizeBeforeShrinkOnLoad != nil)
        let expected = try Self.decodeAtEighth(bytes)
        let bitmap = decoded.bitmap
        let actual = bitmap.withUnsafeBytes { bytes in
            (0..<bitmap.height).flatMap { row in bytes[(row * bitmap.bytesPerRow)..<(row * bitmap.bytesPerRow + bitmap.width * 4)] }
        }
        #expect(actual == expected)
        #expect(bytes.withUnsafeBufferPointer { JPEGEighthScaleScans.pruned($0) } != nil)
    }

    @Test("Baseline files, files without EOI and files missing a scan are decoded as they are")
    func leftAlone() throws {
        let size = PixelSize(width: 64, height: 48)
        let baseline = try Self.jpeg(size: size, subsampling: TJSAMP_420, progressive: false)
        #expect(baseline.withUnsafeBufferPointer { JPEGEighthScaleScans.pruned($0) } == nil)
        let progressive = try Self.progressiveJPEG(size: size, subsampling: TJSAMP_420)
        let withoutEnd = Array(progressive.dropLast(2))
        #expect(withoutEnd.withUnsafeBufferPointer { JPEGEighthScaleScans.pruned($0) } == nil)
        // Cut before the last scan, then closed with EOI: coefficients are missing (libjpeg
        // would smooth the blocks), so the rewrite does not apply.
        let lastScan = try #require(Self.offsets(of: 0xDA, in: progressive).last)
        let missingScan = Array(progressive[..<lastScan]) + [0xFF, 0xD9]
        #expect(missingScan.withUnsafeBufferPointer { JPEGEighthScaleScans.pruned($0) } == nil)
    }

    // MARK: - Helpers

    /// A textured picture (gradients plus a hash pattern, so every coefficient carries data),
    /// encoded progressive at quality 92.
    static func progressiveJPEG(size: PixelSize, subsampling: TJSAMP) throws -> [UInt8] {
        try jpeg(size: size, subsampling: subsampling, progressive: true)
    }

    static func jpeg(size: PixelSize, subsampling: TJSAMP, progressive: Bool) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let hash = UInt32(truncatingIfNeeded: (x &* 73_856_093) ^ (y &* 19_349_663)) % 61
                let index = (y * size.width + x) * 3
                pixels[index] = UInt8((x * 255 / size.width + Int(hash)) % 256)
                pixels[index + 1] = UInt8((y * 255 / size.height + Int(hash) * 2) % 256)
                pixels[index + 2] = UInt8(((x + y) * 3 + Int(hash) * 3) % 256)
            }
        }
        let handle = try #require(tjInitCompress())
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        let flags = TJFLAG_ACCURATEDCT | (progressive ? TJFLAG_PROGRESSIVE : 0)
        let status = tjCompress2(
            handle, pixels, Int32(size.width), 0, Int32(size.height), TJPF_RGB.rawValue, &buffer, &length,
            Int32(subsampling.rawValue), 92, Int32(flags))
        defer { tjFree(buffer) }
        #expect(status == 0, "tjCompress2 failed")
        let start = try #require(buffer)
        return Array(UnsafeBufferPointer(start: start, count: Int(length)))
    }

    /// TurboJPEG's RGBA pixels for `jpeg` at 1/8 scale, strict (any warning fails).
    static func decodeAtEighth(_ jpeg: [UInt8]) throws -> [UInt8] {
        let handle = try #require(tjInitDecompress())
        defer { tjDestroy(handle) }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        try #require(tjDecompressHeader3(handle, jpeg, UInt(jpeg.count), &width, &height, &subsampling, &colorspace) == 0)
        let factor = tjscalingfactor(num: 1, denom: 8)
        let scaled = (darkroom_tj_scaled(width, factor), darkroom_tj_scaled(height, factor))
        var pixels = [UInt8](repeating: 0, count: Int(scaled.0 * scaled.1 * 4))
        let status = tjDecompress2(
            handle, jpeg, UInt(jpeg.count), &pixels, scaled.0, 0, scaled.1, TJPF_RGBA.rawValue,
            Int32(TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS))
        try #require(status == 0, "\(String(cString: tjGetErrorStr2(handle)))")
        return pixels
    }

    /// Where each `FF marker` occurs outside entropy-coded data's stuffed bytes (good enough for
    /// TurboJPEG's own output, whose markers are never preceded by fill bytes).
    static func offsets(of marker: UInt8, in jpeg: [UInt8]) -> [Int] {
        jpeg.indices.dropLast().filter { jpeg[$0] == 0xFF && jpeg[$0 + 1] == marker }
    }
}
