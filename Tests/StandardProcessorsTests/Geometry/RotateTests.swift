import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("rotate: clockwise, any angle, the canvas grows")
struct RotateTests {
    let source = TestBitmaps.noise(width: 7, height: 4)

    @Test("90° clockwise moves every pixel exactly: the bottom-left corner becomes the top-left")
    func quarterTurn() throws {
        let result = try ImageProcessors.Rotate(degrees: 90).process(source)
        #expect(result.size == PixelSize(width: 4, height: 7))
        for y in 0..<7 {
            for x in 0..<4 {
                // Destination (x, y) comes from source (y, h − 1 − x).
                #expect(result.premultipliedPixel(x: x, y: y) == source.premultipliedPixel(x: y, y: 3 - x))
            }
        }
        #expect(result.isOpaque)
    }

    @Test("Equivalent right angles give identical pixels", arguments: [(-90.0, 270.0), (450.0, 90.0), (-180.0, 180.0), (720.0, 0.0)])
    func equivalentAngles(a: Double, b: Double) throws {
        let x = try ImageProcessors.Rotate(degrees: a).process(source)
        let y = try ImageProcessors.Rotate(degrees: b).process(source)
        #expect(x.size == y.size)
        #expect(x.storage == y.storage)
    }

    @Test("360° and 0° return the image unchanged; 180° reverses it")
    func fullAndHalfTurn() throws {
        #expect(try ImageProcessors.Rotate(degrees: 360).process(source).storage == source.storage)
        let half = try ImageProcessors.Rotate(degrees: 180).process(source)
        #expect(half.premultipliedPixel(x: 0, y: 0) == source.premultipliedPixel(x: 6, y: 3))
    }

    @Test(
        "The canvas is the rotated bounding box, rounded as vips rounds it",
        arguments: [
            // (angle, expected width, height) for a 100×60 image, as `vips rotate` 8.14 gives them
            (45.0, 113, 113), (30.0, 117, 102), (10.0, 109, 76), (1.0, 101, 62), (0.5, 101, 61), (200.0, 114, 91), (-30.0, 117, 102),
        ])
    func canvasSize(angle: Double, w: Int, h: Int) throws {
        let result = try ImageProcessors.Rotate(degrees: angle).process(TestBitmaps.gradient(width: 100, height: 60))
        #expect(result.size == PixelSize(width: w, height: h))
    }

    @Test("45° on a transparent background: corners are transparent, the middle keeps the colour, edges are soft")
    func transparentCorners() throws {
        let color = RGBAColor(red: 40, green: 90, blue: 200)
        let result = try ImageProcessors.Rotate(degrees: 45).process(TestBitmaps.solid(color, width: 40, height: 40))
        #expect(result.size == PixelSize(width: 57, height: 57))
        #expect(!result.isOpaque)
        #expect(result.premultipliedPixel(x: 0, y: 0).a == 0)
        #expect(result.premultipliedPixel(x: 56, y: 56).a == 0)
        #expect(result.premultipliedPixel(x: 28, y: 28) == color.premultiplied)
        // Along the middle row, alpha rises from 0 to 255 through intermediate values.
        let alphas = (0..<28).map { result.premultipliedPixel(x: $0, y: 28).a }
        #expect(alphas.contains { $0 > 0 && $0 < 255 })
        #expect(TestPixels.isPremultipliedValid(result))
    }

    @Test("An opaque background fills the corners and keeps the image opaque")
    func opaqueBackground() throws {
        let result = try ImageProcessors.Rotate(degrees: 30, background: .white).process(TestBitmaps.solid(.black, width: 50, height: 20))
        #expect(result.isOpaque)
        #expect(result.premultipliedPixel(x: 0, y: 0) == (255, 255, 255, 255))
        let c = result.premultipliedPixel(x: result.width / 2, y: result.height / 2)
        #expect(c == (0, 0, 0, 255))
    }

    @Test("Transparency is introduced only by a non-right angle on a background that is not opaque")
    func introducesTransparency() {
        #expect(ImageProcessors.Rotate(degrees: 30).introducesTransparency)
        #expect(!ImageProcessors.Rotate(degrees: 30, background: .white).introducesTransparency)
        #expect(!ImageProcessors.Rotate(degrees: -270).introducesTransparency)
        #expect(ImageProcessors.Rotate(degrees: 89.5, background: RGBAColor(red: 0, green: 0, blue: 0, alpha: 254)).introducesTransparency)
    }
}
