import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("downsample: fit inside a box, never enlarge")
struct DownsampleTests {
    @Test(
        "Given an image and a box, the result fits the box with the image's aspect ratio",
        arguments: [
            // (source width, height, box width, height, expected width, height)
            (300, 200, 100, 100, 100, 67),  // landscape
            (200, 300, 100, 100, 67, 100),  // portrait
            (3, 2, 1, 1, 1, 1),  // tiny
            (1, 500, 100, 100, 1, 100),  // one pixel wide: the narrow side never drops to 0
            (640, 480, 400, 400, 400, 300),
            (1000, 10, 50, 50, 50, 1),
        ])
    func fitsTheBox(w: Int, h: Int, bw: Int, bh: Int, ew: Int, eh: Int) throws {
        let result = try ImageProcessors.Downsample(size: PixelSize(width: bw, height: bh))
            .process(TestBitmaps.gradient(width: w, height: h))
        #expect(result.size == PixelSize(width: ew, height: eh))
        #expect(result.isOpaque)
    }

    @Test("Given an image already inside the box, it comes back unchanged")
    func alreadySmall() throws {
        let source = TestBitmaps.noise(width: 50, height: 40)
        let result = try GeometryTestSupport.downsample(100, 100).process(source)
        #expect(result.size == source.size)
        #expect(result.storage == source.storage)
        let exact = try GeometryTestSupport.downsample(50, 40).process(source)
        #expect(exact.storage == source.storage)
    }

    @Test("Given a bitmap shrunk on load, the target comes from the size before the shrink")
    func usesLogicalSize() throws {
        // A 6028×3391 JPEG decoded at 1/8 is 754×424 (sides round up); a full-size decode fitted
        // into 400×400 is 400×225, and so must this be.
        var decoded = TestBitmaps.gradient(width: 754, height: 424)
        decoded.sizeBeforeShrinkOnLoad = PixelSize(width: 6028, height: 3391)
        let result = try GeometryTestSupport.downsample(400, 400).process(decoded)
        #expect(result.size == PixelSize(width: 400, height: 225))
        #expect(result.sizeBeforeShrinkOnLoad == nil)
    }

    @Test("Given a JPEG decoded at 1/8 (sides rounded up), only the part holding the image is mapped onto the target")
    func mapsTheDecodedExtent() throws {
        var decoded = TestBitmaps.noise(width: 754, height: 424)
        decoded.sizeBeforeShrinkOnLoad = PixelSize(width: 6028, height: 3391)
        let result = try GeometryTestSupport.downsample(400, 400).process(decoded)
        // 6028 / 8 = 753.5 and 3391 / 8 = 423.875 pixels of the 754 × 424 hold the picture.
        let expected = try decoded.resampled(to: PixelSize(width: 400, height: 225), from: (x: 0, y: 0, width: 753.5, height: 423.875))
        #expect(result.storage == expected.storage)
    }

    @Test("The decode hint asks the decoder to fit the box")
    func decodeHint() {
        let processor = ImageProcessors.Downsample(size: PixelSize(width: 400, height: 300))
        #expect(processor.decodeHint == DecodeHint(box: PixelSize(width: 400, height: 300), mode: .fit))
        #expect(!processor.introducesTransparency)
    }

    @Test("Given a red square on a transparent background, no pixel gets a dark halo")
    func noDarkHalo() throws {
        let source = GeometryTestSupport.square(
            width: 97, height: 61, rect: PixelRect(x: 30, y: 20, width: 31, height: 17),
            inner: RGBAColor(red: 255, green: 0, blue: 0), outer: .clear)
        for box in [PixelSize(width: 20, height: 20), PixelSize(width: 41, height: 41), PixelSize(width: 7, height: 7)] {
            let result = try ImageProcessors.Downsample(size: box).process(source)
            #expect(!result.isOpaque)
            var sawEdge = false
            for y in 0..<result.height {
                for x in 0..<result.width {
                    let p = result.pixel(x: x, y: y)
                    guard p.alpha > 0 else { continue }
                    if p.alpha < 255 { sawEdge = true }
                    #expect(p.red >= 253 && p.green <= 2 && p.blue <= 2, "pixel (\(x), \(y)) is \(p) in a \(box) reduction")
                }
            }
            #expect(sawEdge, "the square's edges should be partially transparent")
            #expect(TestPixels.isPremultipliedValid(result))
        }
    }

    @Test(
        "Given a flat colour, the reduction is exactly flat, with or without alpha",
        arguments: [
            RGBAColor(red: 12, green: 200, blue: 99), RGBAColor(red: 200, green: 100, blue: 50, alpha: 128), RGBAColor.clear,
        ])
    func flatStaysFlat(color: RGBAColor) throws {
        let source = TestBitmaps.solid(color, width: 123, height: 77)
        for box in [PixelSize(width: 40, height: 40), PixelSize(width: 10, height: 10), PixelSize(width: 3, height: 3)] {
            let result = try ImageProcessors.Downsample(size: box).process(source)
            #expect(TestPixels.isFlat(result, color.premultiplied))
            #expect(result.isOpaque == color.isOpaque)
        }
    }

    @Test(
        "Given a smooth picture, the reduction agrees with vips thumbnail at 38 dB or more",
        .enabled(if: GeometryTestSupport.vipsAvailable, "vips is not on PATH"),
        arguments: [(240, 160, 100), (300, 200, 64), (180, 240, 100), (400, 300, 90)])
    func agreesWithVips(w: Int, h: Int, box: Int) throws {
        let source = GeometryTestSupport.scene(width: w, height: h)
        let vips = try GeometryTestSupport.vips(source, ["thumbnail", "{in}", "{out}", "\(box)", "--height", "\(box)"])
        let ours = try GeometryTestSupport.downsample(box, box).process(source)
        #expect(ours.size == vips.size)
        let psnr = PixelMetrics.psnr(ours, vips)
        #expect(psnr >= 38, "PSNR \(psnr) dB against vips for \(w)x\(h) → \(box)")
    }
}
