import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("roundCorner and border")
struct ColorShapeProcessorTests {
    let grey = TestPixels.filled((90, 120, 150, 255), width: 100, height: 100)

    @Test("Given an opaque image, roundCorner(20) clears the deep corner, blends the arc and keeps the centre")
    func roundCornerAntiAliases() throws {
        let out = try ColorTestSupport.processor("roundCorner(20)").process(grey)
        #expect(out.size == grey.size)
        #expect(TestPixels.same(out.premultipliedPixel(x: 0, y: 0), (0, 0, 0, 0)))
        #expect(TestPixels.same(out.premultipliedPixel(x: 99, y: 99), (0, 0, 0, 0)))
        #expect(TestPixels.same(out.premultipliedPixel(x: 50, y: 50), (90, 120, 150, 255)))
        #expect(TestPixels.same(out.premultipliedPixel(x: 50, y: 0), (90, 120, 150, 255)))
        let arc = out.premultipliedPixel(x: 5, y: 5)
        #expect(arc.a > 0 && arc.a < 255)
        // Premultiplied: colour scales with coverage.
        #expect(abs(Int(arc.g) - Int(arc.a) * 120 / 255) <= 1)
        #expect(!out.isOpaque)
    }

    @Test("roundCorner with an opaque background fills the corners with it and stays opaque")
    func roundCornerBackground() throws {
        let out = try ColorTestSupport.processor("roundCorner(20, background: #FFFFFF)").process(grey)
        #expect(TestPixels.same(out.premultipliedPixel(x: 0, y: 0), (255, 255, 255, 255)))
        let arc = out.premultipliedPixel(x: 5, y: 5)
        #expect(arc.a == 255 && arc.r > 90 && arc.r < 255)
        #expect(out.isOpaque)
    }

    @Test("Only the named corners are rounded")
    func roundCornerSubset() throws {
        let out = try ColorTestSupport.processor("roundCorner(20, corners: topLeft+bottomRight)").process(grey)
        #expect(out.premultipliedPixel(x: 0, y: 0).a == 0)
        #expect(out.premultipliedPixel(x: 99, y: 99).a == 0)
        #expect(out.premultipliedPixel(x: 99, y: 0).a == 255)
        #expect(out.premultipliedPixel(x: 0, y: 99).a == 255)
    }

    @Test("A radius larger than half the shorter side makes a capsule")
    func roundCornerClamps() throws {
        let wide = TestPixels.filled((255, 255, 255, 255), width: 40, height: 20)
        let out = try ColorTestSupport.processor("roundCorner(1000)").process(wide)
        #expect(out.premultipliedPixel(x: 0, y: 0).a == 0)
        #expect(out.premultipliedPixel(x: 20, y: 0).a == 255)  // straight top edge between the ends
        #expect(out.premultipliedPixel(x: 20, y: 10).a == 255)
        let end = out.premultipliedPixel(x: 0, y: 10).a  // the left end of the capsule
        #expect(end > 0 && end < 255)
    }

    @Test("Transparent pixels inside the rounded rectangle stay transparent")
    func roundCornerKeepsInteriorAlpha() throws {
        // Column 0 is transparent, column 1 half-transparent. Pixel (0, 0) lies wholly outside the
        // radius-4 arc (its nearest point (1, 1) is 4.24 from the centre (4, 4)).
        let image = TestPixels.mixedAlpha(width: 12, height: 24)
        let out = try ColorTestSupport.processor("roundCorner(4, background: #FF0000)").process(image)
        #expect(TestPixels.same(out.premultipliedPixel(x: 0, y: 12), (0, 0, 0, 0)))
        #expect(TestPixels.same(out.premultipliedPixel(x: 0, y: 0), (255, 0, 0, 255)))
        #expect(TestPixels.same(out.premultipliedPixel(x: 1, y: 12), image.premultipliedPixel(x: 1, y: 12)))
        #expect(!out.isOpaque)
    }

    @Test("border(2, #FF0000) paints the two outermost rows and columns and leaves the inside alone")
    func borderSquare() throws {
        let image = TestPixels.filled((0, 0, 255, 255), width: 10, height: 10)
        let out = try ColorTestSupport.processor("border(2, #FF0000)").process(image)
        for (x, y) in [(0, 0), (1, 5), (9, 9), (5, 8), (8, 1)] {
            #expect(TestPixels.same(out.premultipliedPixel(x: x, y: y), (255, 0, 0, 255)), "(\(x), \(y))")
        }
        for (x, y) in [(2, 2), (5, 5), (7, 7)] {
            #expect(TestPixels.same(out.premultipliedPixel(x: x, y: y), (0, 0, 255, 255)), "(\(x), \(y))")
        }
        #expect(out.isOpaque)
    }

    @Test("A half-transparent border colour is composited over the image; a 1.5 px border half-covers its inner pixel")
    func borderBlends() throws {
        let image = TestPixels.filled((0, 0, 255, 255), width: 10, height: 10)
        let half = try ColorTestSupport.processor("border(2, #FF000080)").process(image)
        #expect(TestPixels.near(half.premultipliedPixel(x: 0, y: 5), (128, 0, 127, 255), tolerance: 0))
        let thin = try ColorTestSupport.processor("border(1.5, #FF0000)").process(image)
        #expect(TestPixels.same(thin.premultipliedPixel(x: 0, y: 5), (255, 0, 0, 255)))
        #expect(TestPixels.near(thin.premultipliedPixel(x: 1, y: 5), (127, 0, 128, 255)))
        #expect(TestPixels.same(thin.premultipliedPixel(x: 2, y: 5), (0, 0, 255, 255)))
    }

    @Test("A rounded border makes the outer corners transparent and follows the arc")
    func borderRounded() throws {
        let image = TestPixels.filled((0, 0, 255, 255), width: 20, height: 20)
        let out = try ColorTestSupport.processor("border(2, #FFFFFF, radius: 6)").process(image)
        #expect(TestPixels.same(out.premultipliedPixel(x: 0, y: 0), (0, 0, 0, 0)))
        #expect(TestPixels.same(out.premultipliedPixel(x: 10, y: 0), (255, 255, 255, 255)))
        #expect(TestPixels.same(out.premultipliedPixel(x: 10, y: 10), (0, 0, 255, 255)))
        // Just inside the outer arc at 45° the pixel is border colour, partly covered.
        let arc = out.premultipliedPixel(x: 1, y: 1)
        #expect(arc.a > 0 && arc.a < 255 && arc.r == arc.g)
        // Inner arc (radius 4 around (6, 6)): pixel (3, 3) mixes border and image.
        let inner = out.premultipliedPixel(x: 3, y: 3)
        #expect(inner.a == 255 && inner.r > 0 && inner.b == 255)
        #expect(!out.isOpaque)
    }

    @Test("A border as wide as half the image covers all of it")
    func borderCoversAll() throws {
        let image = TestBitmaps.noise(width: 8, height: 6)
        let out = try ColorTestSupport.processor("border(3, #00FF00)").process(image)
        #expect(TestPixels.isFlat(out))
        #expect(TestPixels.same(out.premultipliedPixel(x: 4, y: 3), (0, 255, 0, 255)))
    }
}
