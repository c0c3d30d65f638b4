import DarkroomChains
import DarkroomCore
import DarkroomTestSupport
import Testing

@Suite("Compositing and colour-matrix kernels")
struct ColorKernelTests {
    @Test("div255 rounds x/255 to nearest for every 16-bit x")
    func div255IsExact() {
        for x in 0...65535 {
            let expected = UInt32((Double(x) / 255).rounded())
            #expect(PixelArithmetic.div255(UInt32(x)) == expected, "x = \(x)")
        }
    }

    @Test("Un-premultiplying by the reciprocal table matches division for every colour and alpha")
    func unpremultiplyMatchesDivision() {
        for a in 1...255 {
            for c in 0...a {
                let expected = min(255, Int((Double(c) * 255 / Double(a)).rounded()))
                let got = Int(PixelArithmetic.unpremultiply(UInt32(c), reciprocal: PixelArithmetic.reciprocal[a]))
                #expect(abs(got - expected) <= 1, "c = \(c), a = \(a)")
            }
        }
    }

    @Test("Source-over of a half-transparent colour on an opaque pixel mixes them by the colour's alpha")
    func sourceOverMixes() throws {
        let image = TestPixels.filled((200, 100, 50, 255))
        let out = try image.compositing(RGBAColor(red: 0, green: 0, blue: 255, alpha: 128), .sourceOver)
        // s = (0, 0, 128, 128); out = s + d·127/255.
        #expect(TestPixels.near(out.premultipliedPixel(x: 1, y: 1), (100, 50, 153, 255), tolerance: 0))
        #expect(out.isOpaque)
    }

    @Test("Source-over onto a transparent pixel gives the colour itself")
    func sourceOverOnTransparent() throws {
        let image = TestPixels.filled((0, 0, 0, 0))
        let out = try image.compositing(RGBAColor(red: 255, green: 0, blue: 0, alpha: 128), .sourceOver)
        #expect(TestPixels.near(out.premultipliedPixel(x: 0, y: 0), (128, 0, 0, 128), tolerance: 0))
        #expect(!out.isOpaque)
    }

    @Test("Source-atop paints only where the image is and keeps its alpha")
    func sourceAtopKeepsAlpha() throws {
        let image = TestPixels.mixedAlpha()
        let out = try image.compositing(RGBAColor(red: 255, green: 0, blue: 0), .sourceAtop)
        #expect(TestPixels.alphas(out) == TestPixels.alphas(image))
        #expect(TestPixels.same(out.premultipliedPixel(x: 0, y: 0), (0, 0, 0, 0)))
        #expect(TestPixels.same(out.premultipliedPixel(x: 1, y: 0), (128, 0, 0, 128)))
        #expect(TestPixels.same(out.premultipliedPixel(x: 3, y: 2), (255, 0, 0, 255)))
    }

    @Test("A fully transparent colour changes nothing, whatever the operator")
    func clearColourIsIdentity() throws {
        let image = TestPixels.mixedAlpha()
        for operation in CompositeOperation.allCases {
            let out = try image.compositing(.clear, operation)
            #expect(TestPixels.pixels(out) == TestPixels.pixels(image))
        }
    }

    @Test("A grey-preserving matrix maps every grey exactly to itself")
    func saturationKeepsGreys() throws {
        let greys = TestPixels.bitmap([(0...255).map { (UInt8($0), UInt8($0), UInt8($0), 255) }])
        for s in [0.0, 0.5, 2, 4] {
            let out = try greys.applyingColorTransform(matrix: .saturation(s), curves: nil)
            #expect(TestPixels.pixels(out) == TestPixels.pixels(greys), "saturation \(s)")
        }
    }

    @Test("The colour matrix on premultiplied pixels equals the matrix on straight colour, premultiplied")
    func matrixCommutesWithPremultiplication() throws {
        // Straight (200, 100, 50) at alpha 128 is stored as (100, 50, 25, 128).
        let image = TestPixels.filled((100, 50, 25, 128))
        let out = try image.applyingColorTransform(matrix: .rec709Grayscale, curves: nil)
        // Luma of the straight colour is 117.65; × 128/255 = 59.06.
        #expect(TestPixels.near(out.premultipliedPixel(x: 0, y: 0), (59, 59, 59, 128), tolerance: 0))
    }

    @Test("Curves see straight colour: a semi-transparent pixel is un-premultiplied, mapped and re-premultiplied")
    func curvesUnpremultiply() throws {
        let invert = ChannelLookupTables(colorChannels: { 1 - $0 })
        let image = TestPixels.filled((100, 50, 25, 128))
        let out = try image.applyingColorTransform(matrix: nil, curves: invert)
        // Straight 199/100/50 → 56/155/205, × 128/255 → 28/78/103.
        #expect(TestPixels.near(out.premultipliedPixel(x: 0, y: 0), (28, 78, 103, 128)))
        let transparent = try TestPixels.filled((0, 0, 0, 0)).applyingColorTransform(matrix: nil, curves: invert)
        #expect(TestPixels.same(transparent.premultipliedPixel(x: 0, y: 0), (0, 0, 0, 0)))
    }

    @Test("The sRGB transfer functions are inverse to each other")
    func srgbRoundTrip() {
        for v in 0...255 {
            let x = Double(v) / 255
            #expect(abs(SRGBTransfer.fromLinear(SRGBTransfer.toLinear(x)) - x) < 1e-9)
        }
        #expect(abs(SRGBTransfer.toLinear(0.5) - 0.21404) < 1e-4)
    }
}
