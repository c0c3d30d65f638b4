import DarkroomChains
import DarkroomCore
import DarkroomTestSupport
import Testing

@Suite("W3C separable blend modes")
struct ColorBlendModeTests {
    /// Blends `color` onto an opaque (200, 100, 50) image and returns the pixel.
    func blended(_ mode: BlendMode, _ color: RGBAColor, onto p: TestPixels.Pixel = (200, 100, 50, 255)) throws -> TestPixels.Pixel {
        try TestPixels.filled(p).blending(color, mode: mode).premultipliedPixel(x: 2, y: 1)
    }

    let grey = RGBAColor(red: 128, green: 128, blue: 128)

    @Test("multiply of (200,100,50) by (128,128,128) is (100,50,25)")
    func multiply() throws {
        #expect(TestPixels.near(try blended(.multiply, grey), (100, 50, 25, 255)))
    }

    @Test("screen of (200,100,50) by grey 128 is Cb + Cs − Cb·Cs = (228,178,153)")
    func screen() throws {
        #expect(TestPixels.near(try blended(.screen, grey), (228, 178, 153, 255)))
    }

    @Test("difference is |Cb − Cs| per channel")
    func difference() throws {
        #expect(TestPixels.near(try blended(.difference, RGBAColor(red: 100, green: 200, blue: 255)), (100, 100, 205, 255)))
    }

    @Test("softLight follows the spec for both halves of the source and both branches of D(Cb)")
    func softLight() throws {
        // Cs = 96/255 ≤ 0.5: Cb − (1 − 2Cs)·Cb·(1 − Cb) → 189.34, 84.98, 40.07
        #expect(TestPixels.near(try blended(.softLight, RGBAColor(red: 96, green: 96, blue: 96)), (189, 85, 40, 255)))
        // Cs = 192/255 > 0.5: Cb + (2Cs − 1)·(D(Cb) − Cb); Cb = 50/255 ≤ 0.25 uses the polynomial D → 81.93
        #expect(TestPixels.near(try blended(.softLight, RGBAColor(red: 192, green: 192, blue: 192)), (213, 130, 82, 255)))
    }

    @Test("colorDodge and colorBurn divide as the spec says, with its edge cases")
    func dodgeAndBurn() throws {
        #expect(TestPixels.near(try blended(.colorDodge, grey), (255, 201, 100, 255)))
        #expect(TestPixels.near(try blended(.colorBurn, grey), (145, 0, 0, 255)))
        #expect(BlendMode.colorDodge.blend(backdrop: 0, source: 1) == 0)
        #expect(BlendMode.colorBurn.blend(backdrop: 1, source: 0) == 1)
    }

    @Test("exclusion, darken, lighten and hardLight match their formulas")
    func otherModes() throws {
        #expect(TestPixels.near(try blended(.exclusion, grey), (127, 128, 128, 255)))
        #expect(TestPixels.near(try blended(.darken, grey), (128, 100, 50, 255)))
        #expect(TestPixels.near(try blended(.lighten, grey), (200, 128, 128, 255)))
        // hardLight with Cs = 64/255 ≤ 0.5 is multiply by 2Cs: 200·128/255 = 100.4
        #expect(TestPixels.near(try blended(.hardLight, RGBAColor(red: 64, green: 64, blue: 64)), (100, 50, 25, 255)))
        // overlay is hardLight with the layers swapped: Cb = 200/255 > 0.5 screens.
        #expect(abs(BlendMode.overlay.blend(backdrop: 0.8, source: 0.3) - BlendMode.hardLight.blend(backdrop: 0.3, source: 0.8)) < 1e-12)
    }

    @Test("The layer's alpha is its opacity: normal at alpha 128 mixes half and half")
    func layerOpacity() throws {
        let p = try blended(.normal, RGBAColor(red: 0, green: 0, blue: 0, alpha: 128))
        #expect(TestPixels.near(p, (100, 50, 25, 255)))
    }

    @Test("On a semi-transparent backdrop the spec's formula with backdrop alpha applies, and alpha is kept")
    func semiTransparentBackdrop() throws {
        // Backdrop straight ≈ (199, 100, 50) at αb = 128/255, stored (100, 50, 25, 128).
        // co = αs·αb·((1 − αb)·Cs + αb·Cb·Cs) + (1 − αs)·cb → 57.2, 44.6, 38.3 (hand-computed).
        let p = try blended(.multiply, grey, onto: (100, 50, 25, 128))
        #expect(TestPixels.near(p, (57, 45, 38, 128)))
        // A half-opaque screen layer: 114.05, 63.43, 18.75.
        let q = try blended(.screen, RGBAColor(red: 255, green: 128, blue: 0, alpha: 128), onto: (100, 50, 25, 128))
        #expect(TestPixels.near(q, (114, 63, 19, 128)))
    }

    @Test("Every mode keeps transparent pixels transparent and the alpha channel unchanged")
    func alphaKept() throws {
        let image = TestPixels.mixedAlpha()
        for mode in BlendMode.allCases {
            let out = try image.blending(RGBAColor(red: 30, green: 160, blue: 220, alpha: 200), mode: mode)
            #expect(TestPixels.alphas(out) == TestPixels.alphas(image), "\(mode)")
            #expect(TestPixels.same(out.premultipliedPixel(x: 0, y: 0), (0, 0, 0, 0)), "\(mode)")
            for y in 0..<out.height {
                for x in 0..<out.width {
                    let p = out.premultipliedPixel(x: x, y: y)
                    #expect(p.r <= p.a && p.g <= p.a && p.b <= p.a, "\(mode) stays premultiplied")
                }
            }
        }
    }

    @Test("Identity settings are exact identity on opaque images")
    func identities() throws {
        let image = TestBitmaps.noise(width: 16, height: 8)
        let cases: [(BlendMode, RGBAColor)] = [
            (.multiply, .white), (.screen, .black), (.normal, .clear), (.darken, .white), (.lighten, .black),
            (.difference, .black),
        ]
        for (mode, color) in cases {
            let out = try image.blending(color, mode: mode)
            #expect(TestPixels.pixels(out) == TestPixels.pixels(image), "\(mode) with \(color)")
        }
    }
}
