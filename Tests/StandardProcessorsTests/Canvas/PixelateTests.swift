import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("pixelate: each block its mean colour")
struct PixelateTests {
    /// The expected bytes, computed the plain way: for every pixel, the rounded mean of the
    /// premultiplied channels over the block (anchored at the top-left) that holds it.
    static func blockMean(_ bitmap: Bitmap, size: Int) -> [UInt8] {
        var out: [UInt8] = []
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let (bx, by) = (x / size * size, y / size * size)
                var sums = [0, 0, 0, 0]
                var count = 0
                for v in by..<min(bitmap.height, by + size) {
                    for u in bx..<min(bitmap.width, bx + size) {
                        let p = bitmap.premultipliedPixel(x: u, y: v)
                        for (c, value) in [p.r, p.g, p.b, p.a].enumerated() { sums[c] += Int(value) }
                        count += 1
                    }
                }
                out += sums.map { UInt8((Double($0) / Double(count)).rounded()) }
            }
        }
        return out
    }

    @Test(
        "Equals the block mean, edge blocks averaged over what they cover",
        arguments: [1, 2, 3, 4, 7, 16, 40])
    func blockMeans(size: Int) throws {
        for image in [TestBitmaps.noise(width: 29, height: 17), TestPixels.mixedAlpha(width: 13, height: 9)] {
            let result = try ImageProcessors.Pixelate(size: size).process(image)
            #expect(result.size == image.size)
            #expect(result.isOpaque == image.isOpaque)
            #expect(TestPixels.pixels(result) == Self.blockMean(image, size: size))
            #expect(TestPixels.isPremultipliedValid(result))
        }
    }

    @Test("A transparent pixel adds no colour: a block half clear, half red is red at half alpha")
    func transparencyWeighted() throws {
        let image = GeometryTestSupport.square(
            width: 2, height: 2, rect: PixelRect(x: 0, y: 0, width: 1, height: 2), inner: RGBAColor(red: 255, green: 0, blue: 0),
            outer: .clear)
        let result = try ImageProcessors.Pixelate(size: 2).process(image)
        #expect(result.pixel(x: 1, y: 1) == RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
    }

    @Test("Chain text: a whole number in 1…4096, required")
    func chainText() throws {
        let registry = StandardProcessors.registry
        try ChainSyntaxChecks.roundTrip("pixelate(size: 8)", canonical: "pixelate(8)", registry: registry)
        #expect(try registry.chain(from: "pixelate(12)").identifier == "pixelate.v1(12)")
        for bad in ["pixelate(0)", "pixelate(2.5)", "pixelate(4097)", "pixelate"] {
            #expect(throws: ChainError.self, "\(bad)") { try registry.chain(from: bad) }
        }
    }
}
