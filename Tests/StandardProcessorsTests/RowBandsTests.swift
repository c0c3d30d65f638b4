import DarkroomCore
import DarkroomStandardProcessors
import Testing

/// Kernels split their rows into bands on idle cores (`RowBands`); the result must be the same
/// bytes as unsplit, for every processor, whatever the band count (band boundaries fall on
/// different rows for each count) and for odd sizes.
@Suite("Pixel work split in bands gives the bytes of unsplit work")
struct RowBandsTests {
    /// Every standard processor, with arguments that reach each kernel path: reductions with and
    /// without the box pre-shrink, an enlargement, one axis only, blur, the colour kernels,
    /// compositing, rotation by any angle, sharpening.
    static let chains = [
        "downsample(47x31)", "downsample(20x20)", "resize(250x93, mode: fill)", "resize(233x400)", "resize(211x40)",
        "resize(37x157)", "crop(120x80)", "roundCorner(17)", "blur(1.5)", "blur(5)", "tint(#FF000080)",
        "overlay(#00FF0040)", "colorControls(saturation: 1.3, contrast: 1.2, exposure: 0.3)", "blackWhite", "border(3, #102030)",
        "blend(multiply, #808080)", "rotate(33)", "rotate(90)", "flip(horizontal)", "sharpen",
        "sharpen(sigma: 0.5, amount: 0.8)", "sharpen(sigma: 3.5, amount: 4, threshold: 2)",
        "roundCorner(20)|>downsample(61x47)|>blur(2)|>tint(#0000FF40)",
    ]

    static func bytes(_ bitmap: Bitmap) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bitmap.width * bitmap.height * 4)
        bitmap.withUnsafeBytes { raw in
            for y in 0..<bitmap.height {
                out.append(contentsOf: raw[(y * bitmap.bytesPerRow)..<(y * bitmap.bytesPerRow + bitmap.width * 4)])
            }
        }
        return out
    }

    @Test("Every processor on an odd-sized opaque image and on one with alpha, in 1, 2, 3 and 7 bands", arguments: chains)
    func sameBytes(chain text: String) throws {
        let chain = try StandardProcessors.registry.chain(from: text)
        let opaque = GeometryTestSupport.scene(width: 211, height: 157)
        // Alpha everywhere but the middle, so the alpha paths of each kernel run.
        let translucent = try StandardProcessors.registry.chain(from: "roundCorner(50)").process(
            GeometryTestSupport.scene(width: 131, height: 229))
        for source in [opaque, translucent] {
            let unsplit = try RowBands.$forcedCount.withValue(1) { try chain.process(source) }
            for bands in [2, 3, 7] {
                let split = try RowBands.$forcedCount.withValue(bands) { try chain.process(source) }
                #expect(split.width == unsplit.width && split.height == unsplit.height)
                #expect(Self.bytes(split) == Self.bytes(unsplit), "\(text) in \(bands) bands on \(source.width)x\(source.height)")
            }
        }
    }
}
