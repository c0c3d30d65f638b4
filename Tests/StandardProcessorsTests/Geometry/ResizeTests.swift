import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("resize: fit, fill (cover then crop) and stretch")
struct ResizeTests {
    @Test("Fit keeps the aspect ratio and may enlarge")
    func fitEnlarges() throws {
        let result = try ImageProcessors.Resize(size: PixelSize(width: 200, height: 200)).process(TestBitmaps.gradient(width: 50, height: 25))
        #expect(result.size == PixelSize(width: 200, height: 100))
        #expect(result.isOpaque)
    }

    @Test("Stretch gives exactly the box, whatever the aspect ratio")
    func stretch() throws {
        let result = try ImageProcessors.Resize(size: PixelSize(width: 31, height: 90), mode: .stretch)
            .process(TestBitmaps.gradient(width: 100, height: 40))
        #expect(result.size == PixelSize(width: 31, height: 90))
    }

    @Test(
        "Fill gives exactly the box and keeps the part the anchor names",
        arguments: [
            // anchor, expected red of the left column (the gradient's red grows left to right)
            (UnitPoint.left, 0...8), (UnitPoint.center, 70...110), (UnitPoint.right, 185...200),
        ])
    func fillCropsAroundAnchor(anchor: UnitPoint, leftRed: ClosedRange<Int>) throws {
        // A 512×128 source covering a 64×64 box scales to 256×64; 64 of those 256 columns survive.
        let source = TestBitmaps.gradient(width: 512, height: 128)
        let result = try ImageProcessors.Resize(size: PixelSize(width: 64, height: 64), mode: .fill, anchor: anchor).process(source)
        #expect(result.size == PixelSize(width: 64, height: 64))
        let red = Int(result.premultipliedPixel(x: 0, y: 32).r)
        #expect(leftRed.contains(red), "left column red \(red) for anchor \(anchor)")
        // The kept part is a quarter of the width: red spans about 64 levels across it.
        let span = Int(result.premultipliedPixel(x: 63, y: 32).r) - red
        #expect((56...72).contains(span), "red spans \(span) across the kept part")
    }

    @Test("Fill with a vertical anchor keeps the top or the bottom of a tall image")
    func fillVertical() throws {
        let source = TestBitmaps.gradient(width: 40, height: 160)  // green grows downwards
        let top = try ImageProcessors.Resize(size: PixelSize(width: 20, height: 20), mode: .fill, anchor: .top).process(source)
        let bottom = try ImageProcessors.Resize(size: PixelSize(width: 20, height: 20), mode: .fill, anchor: .bottom).process(source)
        #expect(top.premultipliedPixel(x: 10, y: 0).g < 10)
        #expect(bottom.premultipliedPixel(x: 10, y: 19).g > 245)
    }

    @Test("Each mode gives the decoder a hint of its own kind")
    func decodeHints() {
        let box = PixelSize(width: 300, height: 200)
        #expect(ImageProcessors.Resize(size: box).decodeHint == DecodeHint(box: box, mode: .fit))
        #expect(ImageProcessors.Resize(size: box, mode: .fill).decodeHint == DecodeHint(box: box, mode: .fill))
        #expect(ImageProcessors.Resize(size: box, mode: .stretch).decodeHint == DecodeHint(box: box, mode: .stretch))
    }

    @Test("Given a bitmap shrunk on load, fill and fit use the size before the shrink")
    func usesLogicalSize() throws {
        var decoded = TestBitmaps.gradient(width: 500, height: 250)
        decoded.sizeBeforeShrinkOnLoad = PixelSize(width: 4000, height: 2000)
        let fit = try ImageProcessors.Resize(size: PixelSize(width: 333, height: 333)).process(decoded)
        #expect(fit.size == PixelSize(width: 333, height: 167))
        let fill = try ImageProcessors.Resize(size: PixelSize(width: 100, height: 100), mode: .fill).process(decoded)
        #expect(fill.size == PixelSize(width: 100, height: 100))
    }

    @Test("Upscaling a flat colour keeps it exactly flat; the premultiplied invariant holds with alpha")
    func flatUpscale() throws {
        let color = RGBAColor(red: 250, green: 10, blue: 128, alpha: 200)
        let result = try ImageProcessors.Resize(size: PixelSize(width: 70, height: 50), mode: .stretch)
            .process(TestBitmaps.solid(color, width: 7, height: 3))
        #expect(TestPixels.isFlat(result, color.premultiplied))
        let noisy = try ImageProcessors.Resize(size: PixelSize(width: 90, height: 90), mode: .stretch)
            .process(
                GeometryTestSupport.square(
                    width: 9, height: 9, rect: PixelRect(x: 3, y: 3, width: 3, height: 3),
                    inner: .white, outer: RGBAColor(red: 0, green: 0, blue: 0, alpha: 40)))
        #expect(TestPixels.isPremultipliedValid(noisy))
    }
}
