import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("blur: Gaussian with sigma = radius, as vips gaussblur")
struct BlurTests {
    @Test(
        "A flat colour stays exactly flat, with or without alpha",
        arguments: [
            RGBAColor(red: 10, green: 20, blue: 250), RGBAColor(red: 255, green: 128, blue: 0, alpha: 77),
        ])
    func flatStaysFlat(color: RGBAColor) throws {
        for radius in [0.7, 3, 12.5, 40] {
            let result = try ImageProcessors.Blur(radius: radius).process(TestBitmaps.solid(color, width: 41, height: 23))
            #expect(TestPixels.isFlat(result, color.premultiplied))
            #expect(result.isOpaque == color.isOpaque)
        }
    }

    @Test("A single bright pixel spreads symmetrically, over about ±1.8 sigma")
    func impulse() throws {
        let source = GeometryTestSupport.square(
            width: 21, height: 21, rect: PixelRect(x: 10, y: 10, width: 1, height: 1),
            inner: .white, outer: .black)
        let result = try ImageProcessors.Blur(radius: 2).process(source)
        // vips' mask for sigma 2 has a half-width of 3: exp(-9/8) ≥ 0.2 > exp(-16/8).
        for d in 1...3 {
            #expect(result.premultipliedPixel(x: 10 - d, y: 10) == result.premultipliedPixel(x: 10 + d, y: 10))
            #expect(result.premultipliedPixel(x: 10, y: 10 - d) == result.premultipliedPixel(x: 10, y: 10 + d))
            // Across axes, the 8-bit intermediate row (as in vips and Pillow) may round differently.
            let across = PixelMetrics.maxChannelDifference(
                result.premultipliedPixel(x: 10, y: 10 - d),
                result.premultipliedPixel(x: 10 + d, y: 10))
            #expect(across <= 1)
            #expect(result.premultipliedPixel(x: 10 + d - 1, y: 10).r > result.premultipliedPixel(x: 10 + d, y: 10).r)
        }
        #expect(result.premultipliedPixel(x: 13, y: 10).r > 0)
        #expect(result.premultipliedPixel(x: 14, y: 10).r == 0)
        #expect(result.premultipliedPixel(x: 10, y: 10) == (12, 12, 12, 255))
    }

    @Test("Blurring a red shape on transparency gives no dark fringe")
    func noDarkFringe() throws {
        let source = GeometryTestSupport.square(
            width: 40, height: 30, rect: PixelRect(x: 10, y: 10, width: 20, height: 10),
            inner: RGBAColor(red: 255, green: 0, blue: 0), outer: .clear)
        let result = try ImageProcessors.Blur(radius: 3).process(source)
        #expect(TestPixels.isPremultipliedValid(result))
        for y in 0..<result.height {
            for x in 0..<result.width {
                let p = result.pixel(x: x, y: y)
                guard p.alpha > 8 else { continue }  // below that, unpremultiplying amplifies rounding
                #expect(p.red >= 245 && p.green <= 3 && p.blue <= 3, "pixel (\(x), \(y)) is \(p)")
            }
        }
    }

    @Test("A radius too small for vips' mask (under about 0.56) leaves the image unchanged")
    func tinyRadius() throws {
        let source = TestBitmaps.noise(width: 16, height: 9)
        let result = try ImageProcessors.Blur(radius: 0.5).process(source)
        #expect(result.storage == source.storage)
    }

    @Test(
        "Blur agrees with vips gaussblur at 35 dB or more",
        .enabled(if: GeometryTestSupport.vipsAvailable, "vips is not on PATH"),
        arguments: [1.0, 2.0, 4.0, 10.0, 24.0])
    func agreesWithVips(radius: Double) throws {
        // Sigma 24 takes the reduced route (blur at 1/3 size, then enlarge). Noise is left out
        // there: with a kernel wider than the picture, vips' result is dominated by copies of the
        // single edge row, which the reduced image only has averaged.
        let sources =
            radius < 16
            ? [TestBitmaps.noise(width: 64, height: 48), GeometryTestSupport.scene(width: 90, height: 60)]
            : [GeometryTestSupport.scene(width: 150, height: 100), GeometryTestSupport.scene(width: 400, height: 300)]
        for source in sources {
            let vips = try GeometryTestSupport.vips(source, ["gaussblur", "{in}", "{out}", "\(radius)"])
            let ours = try ImageProcessors.Blur(radius: radius).process(source)
            #expect(ours.size == vips.size)
            let psnr = PixelMetrics.psnr(ours, vips)
            #expect(psnr >= 35, "PSNR \(psnr) dB against vips gaussblur \(radius) on \(source.size)")
        }
    }
}
