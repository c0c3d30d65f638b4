import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("flip: mirror horizontally or vertically")
struct FlipTests {
    let source = TestBitmaps.noise(width: 5, height: 3)

    @Test("Horizontal swaps left and right")
    func horizontal() throws {
        let result = try GeometryTestSupport.processor("flip(horizontal)").process(source)
        #expect(result.size == source.size)
        for y in 0..<3 {
            for x in 0..<5 {
                #expect(result.premultipliedPixel(x: x, y: y) == source.premultipliedPixel(x: 4 - x, y: y))
            }
        }
    }

    @Test("Vertical swaps top and bottom")
    func vertical() throws {
        let result = try ImageProcessors.Flip(.vertical).process(source)
        for y in 0..<3 {
            for x in 0..<5 {
                #expect(result.premultipliedPixel(x: x, y: y) == source.premultipliedPixel(x: x, y: 2 - y))
            }
        }
    }

    @Test("Flipping twice gives the original back")
    func involution() throws {
        let flip = ImageProcessors.Flip(.horizontal)
        #expect(try flip.process(flip.process(source)).storage == source.storage)
    }
}
