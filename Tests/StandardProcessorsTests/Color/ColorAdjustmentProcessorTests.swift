import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("tint, overlay, colorControls, blackWhite and blend")
struct ColorAdjustmentProcessorTests {
    let base = TestPixels.filled((200, 100, 50, 255))

    func pixel(_ text: String, _ image: Bitmap? = nil) throws -> TestPixels.Pixel {
        try ColorTestSupport.processor(text).process(image ?? base).premultipliedPixel(x: 1, y: 1)
    }

    @Test("tint(#FF000080) mixes red in by its alpha: (200,100,50) → (228,50,25)")
    func tintMixes() throws {
        #expect(TestPixels.same(try pixel("tint(#FF000080)"), (228, 50, 25, 255)))
    }

    @Test("An opaque tint makes a silhouette that keeps the image's alpha")
    func tintSilhouette() throws {
        let image = TestPixels.mixedAlpha()
        let out = try ColorTestSupport.processor("tint(#FF0000)").process(image)
        #expect(TestPixels.alphas(out) == TestPixels.alphas(image))
        #expect(TestPixels.same(out.premultipliedPixel(x: 0, y: 1), (0, 0, 0, 0)))
        #expect(TestPixels.same(out.premultipliedPixel(x: 1, y: 1), (128, 0, 0, 128)))
        #expect(TestPixels.same(out.premultipliedPixel(x: 4, y: 1), (255, 0, 0, 255)))
    }

    @Test("overlay(#0000FF, fraction: 0.25) shows a quarter of the original: (200,100,50) → (50,25,204)")
    func overlayFraction() throws {
        #expect(TestPixels.near(try pixel("overlay(#0000FF, fraction: 0.25)"), (50, 25, 204, 255), tolerance: 0))
        #expect(TestPixels.same(try pixel("overlay(#0000FF, fraction: 0)"), (0, 0, 255, 255)))
    }

    @Test("overlay keeps alpha and transparent pixels")
    func overlayAlpha() throws {
        let image = TestPixels.mixedAlpha()
        let out = try ColorTestSupport.processor("overlay(#00FF00, fraction: 0)").process(image)
        #expect(TestPixels.alphas(out) == TestPixels.alphas(image))
        #expect(TestPixels.same(out.premultipliedPixel(x: 1, y: 2), (0, 128, 0, 128)))
    }

    @Test("colorControls brightness adds, contrast scales around mid-grey, saturation mixes with luma")
    func colorControlsValues() throws {
        let grey100 = TestPixels.filled((100, 100, 100, 255))
        #expect(TestPixels.same(try pixel("colorControls(brightness: 0.2)", grey100), (151, 151, 151, 255)))
        let ramp = TestPixels.filled((100, 200, 20, 255))
        // (v − 127.5)·1.5 + 127.5: 86.25, 236.25, −33.75 → 0
        #expect(TestPixels.same(try pixel("colorControls(contrast: 1.5)", ramp), (86, 236, 0, 255)))
        // Luma of (200,100,50) is 117.65; saturation 0.5 → 158.8, 108.8, 83.8
        #expect(TestPixels.near(try pixel("colorControls(saturation: 0.5)"), (159, 109, 84, 255)))
        #expect(TestPixels.same(try pixel("colorControls(saturation: 0)"), (118, 118, 118, 255)))
    }

    @Test("exposure multiplies linear light by 2^EV: sRGB 100 → 138 at +1 EV, → 71 at −1 EV")
    func exposure() throws {
        let grey100 = TestPixels.filled((100, 100, 100, 255))
        #expect(TestPixels.same(try pixel("colorControls(exposure: 1)", grey100), (138, 138, 138, 255)))
        #expect(TestPixels.same(try pixel("colorControls(exposure: -1)", grey100), (71, 71, 71, 255)))
    }

    @Test("colorControls works on straight colour of semi-transparent pixels and keeps alpha")
    func colorControlsSemiTransparent() throws {
        // Straight ≈ 100 at alpha 128 (stored 50): +0.2 brightness → 151 → stored 75.8.
        let image = TestPixels.filled((50, 50, 50, 128))
        #expect(TestPixels.near(try pixel("colorControls(brightness: 0.2)", image), (76, 76, 76, 128)))
        let mixed = TestPixels.mixedAlpha()
        let out = try ColorTestSupport.processor("colorControls(brightness: 0.5, saturation: 2)").process(mixed)
        #expect(TestPixels.alphas(out) == TestPixels.alphas(mixed))
        #expect(TestPixels.same(out.premultipliedPixel(x: 0, y: 0), (0, 0, 0, 0)))
    }

    @Test("blackWhite is Rec. 709 luma: (200,100,50) → 118; premultiplied (100,50,25,128) → 59")
    func blackWhite() throws {
        #expect(TestPixels.same(try pixel("blackWhite"), (118, 118, 118, 255)))
        #expect(TestPixels.same(try pixel("blackWhite", TestPixels.filled((100, 50, 25, 128))), (59, 59, 59, 128)))
        #expect(TestPixels.same(try pixel("blackWhite", TestPixels.filled((255, 255, 255, 255))), (255, 255, 255, 255)))
    }

    @Test("blend(multiply, #808080) through the processor gives (100,50,25)")
    func blendProcessor() throws {
        #expect(TestPixels.near(try pixel("blend(multiply, #808080)"), (100, 50, 25, 255)))
        #expect(TestPixels.near(try pixel("blend(mode: screen, color: #808080)"), (228, 178, 153, 255)))
    }

    static let identities = [
        "colorControls", "colorControls(brightness: 0, contrast: 1, saturation: 1, exposure: 0)",
        "tint(#FF000000)", "overlay(#FF0000, fraction: 1)", "blend(multiply, #FFFFFF)",
        "blend(normal, #12345600)", "border(2, #00000000)",
    ]

    @Test("Identity settings leave every byte unchanged", arguments: identities)
    func identity(text: String) throws {
        let image = TestBitmaps.noise(width: 17, height: 9)
        let out = try ColorTestSupport.processor(text).process(image)
        #expect(TestPixels.pixels(out) == TestPixels.pixels(image))
        #expect(out.isOpaque)
    }

    static let flatChains = [
        "tint(#FF000080)", "overlay(#123456, fraction: 0.3)", "colorControls(brightness: 0.1, contrast: 1.3, saturation: 1.7, exposure: 0.4)",
        "blackWhite", "blend(softLight, #C08040)", "blend(colorBurn, #80808080)",
    ]

    @Test("A flat image stays flat", arguments: flatChains)
    func flatStaysFlat(text: String) throws {
        let out = try ColorTestSupport.processor(text).process(TestPixels.filled((37, 180, 90, 255), width: 9, height: 5))
        #expect(TestPixels.isFlat(out))
        #expect(out.isOpaque)
    }

    @Test("Colour processors keep the alpha channel and transparent pixels exactly", arguments: flatChains)
    func alphaKept(text: String) throws {
        let image = TestPixels.mixedAlpha()
        let out = try ColorTestSupport.processor(text).process(image)
        #expect(TestPixels.alphas(out) == TestPixels.alphas(image))
        #expect(!out.isOpaque)
    }
}
