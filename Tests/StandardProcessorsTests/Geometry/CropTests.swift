import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("crop: a rectangle placed by an anchor")
struct CropTests {
    /// Red = x × 255 / 99, green = y × 255 / 99 on a 100×100 gradient: a pixel's colour says where it came from.
    let source = TestBitmaps.gradient(width: 100, height: 100)

    func origin(of b: Bitmap) -> (x: Int, y: Int) {
        let p = b.premultipliedPixel(x: 0, y: 0)
        return ((Int(p.r) * 99 + 127) / 255, (Int(p.g) * 99 + 127) / 255)
    }

    @Test(
        "Named anchors place the rectangle at the matching part of the image",
        arguments: [
            ("topLeft", 0, 0), ("top", 30, 0), ("topRight", 60, 0), ("left", 0, 40), ("center", 30, 40),
            ("right", 60, 40), ("bottomLeft", 0, 80), ("bottom", 30, 80), ("bottomRight", 60, 80),
        ])
    func namedAnchors(name: String, x: Int, y: Int) throws {
        let result = try GeometryTestSupport.processor("crop(40x20, anchor: \(name))").process(source)
        #expect(result.size == PixelSize(width: 40, height: 20))
        #expect(origin(of: result) == (x, y))
    }

    @Test("A point anchor lines up the rectangle's point with the image's point")
    func pointAnchor() throws {
        // (0.25, 0.75): origin = ((100 − 40) × 0.25, (100 − 20) × 0.75) = (15, 60)
        let result = try GeometryTestSupport.processor("crop(40x20, anchor: (0.25, 0.75))").process(source)
        #expect(origin(of: result) == (15, 60))
        let swift = try ImageProcessors.Crop(size: PixelSize(width: 40, height: 20), anchor: UnitPoint(x: 0.25, y: 0.75)).process(source)
        #expect(swift.storage == result.storage)
    }

    @Test("An axis larger than the image keeps the image's size on that axis")
    func largerThanImage() throws {
        let result = try ImageProcessors.Crop(size: PixelSize(width: 500, height: 10), anchor: .bottomRight).process(source)
        #expect(result.size == PixelSize(width: 100, height: 10))
        #expect(origin(of: result) == (0, 90))
        let whole = try ImageProcessors.Crop(size: PixelSize(width: 500, height: 500)).process(source)
        #expect(whole.storage == source.storage)
    }

    @Test("Cropping copies pixels exactly and keeps opacity")
    func exactCopy() throws {
        let noise = TestBitmaps.noise(width: 30, height: 20)
        let result = try ImageProcessors.Crop(size: PixelSize(width: 10, height: 5), anchor: .topLeft).process(noise)
        #expect(result.isOpaque)
        for y in 0..<5 {
            for x in 0..<10 {
                #expect(result.premultipliedPixel(x: x, y: y) == noise.premultipliedPixel(x: x, y: y))
            }
        }
        let clear = try ImageProcessors.Crop(size: PixelSize(width: 3, height: 3))
            .process(TestBitmaps.solid(RGBAColor(red: 1, green: 2, blue: 3, alpha: 4), width: 8, height: 8))
        #expect(!clear.isOpaque)
    }
}
