import DarkroomChains
import DarkroomCore
import DarkroomTestSupport
import Testing

@Suite("Resampling kernel: Lanczos-3 on premultiplied RGBA")
struct ResampleKernelTests {
    /// Random premultiplied pixels with random alpha: the hardest case for the colour ≤ alpha rule.
    static func randomAlpha(width: Int, height: Int) -> Bitmap {
        var state: UInt64 = 7
        return try! Bitmap(width: width, height: height, isOpaque: false) { bytes, rowBytes in
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let a = UInt8(truncatingIfNeeded: state >> 56)
                    let i = y * rowBytes + x * 4
                    for c in 0..<3 { bytes[i + c] = RGBAColor.multiply(UInt8(truncatingIfNeeded: state >> (8 * c + 8)), a) }
                    bytes[i + 3] = a
                }
            }
        }
    }

    @Test(
        "Colour never exceeds alpha after reducing, enlarging or stretching random transparent pixels",
        arguments: [
            (60, 40, 23, 17), (60, 40, 150, 90), (61, 41, 7, 80), (300, 200, 20, 13),
        ])
    func premultipliedInvariant(w: Int, h: Int, ow: Int, oh: Int) throws {
        let result = try Self.randomAlpha(width: w, height: h).resampled(to: PixelSize(width: ow, height: oh))
        #expect(result.size == PixelSize(width: ow, height: oh))
        #expect(TestPixels.isPremultipliedValid(result))
        #expect(!result.isOpaque)
    }

    @Test(
        "Opaque input stays opaque with every alpha exactly 255, through the box pre-shrink too",
        arguments: [
            (200, 100, 90, 45), (1000, 600, 40, 24), (30, 20, 300, 200),
        ])
    func opaqueStaysOpaque(w: Int, h: Int, ow: Int, oh: Int) throws {
        let result = try TestBitmaps.noise(width: w, height: h).resampled(to: PixelSize(width: ow, height: oh))
        #expect(result.isOpaque)
        #expect(result.scanIsOpaque())
    }

    @Test("Large reductions (box pre-shrink then Lanczos) keep a flat colour exactly flat")
    func flatLargeReduction() throws {
        let color = RGBAColor(red: 17, green: 230, blue: 101, alpha: 180)
        let result = try TestBitmaps.solid(color, width: 1001, height: 333).resampled(to: PixelSize(width: 9, height: 4))
        #expect(TestPixels.isFlat(result, color.premultiplied))
    }

    @Test("A large reduction of a gradient keeps its average and ordering")
    func gradientReduction() throws {
        let result = try TestBitmaps.gradient(width: 1200, height: 40).resampled(to: PixelSize(width: 12, height: 4))
        var previous = -1
        for x in 0..<12 {
            let red = Int(result.premultipliedPixel(x: x, y: 1).r)
            #expect(red > previous)
            previous = red
            // Column x averages source columns 100x…100x+99: red ≈ (100x + 49.5) × 255 / 1199.
            let expected = (Double(100 * x) + 49.5) * 255 / 1199
            #expect(abs(Double(red) - expected) <= 2, "column \(x): \(red), expected about \(expected)")
        }
    }

    @Test("Resampling to the same size returns the pixels unchanged")
    func identity() throws {
        let source = TestBitmaps.noise(width: 33, height: 17)
        #expect(try source.resampled(to: source.size).storage == source.storage)
    }

    @Test("Sizes outside the limits are errors, not crashes")
    func limits() {
        let source = TestBitmaps.noise(width: 4, height: 4)
        #expect(throws: BitmapError.self) { try source.resampled(to: PixelSize(width: 0, height: 5)) }
        #expect(throws: BitmapError.self) { try source.resampled(to: PixelSize(width: 70_000, height: 5)) }
        #expect(throws: BitmapError.self) { try source.resampled(to: PixelSize(width: 60_000, height: 60_000)) }
    }
}
