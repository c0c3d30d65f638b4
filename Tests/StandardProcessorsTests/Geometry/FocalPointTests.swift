import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("Focal points: crop and resize(fill) centre their window on focus: x,y, clamped to the image")
struct FocalPointTests {
    @Test(
        "crop's window is centred on the focal point and clamped: origin = clamp(round(f·W − w/2), 0, W − w)",
        arguments: [
            // image, focus, expected origin of a 40×30 window
            (PixelSize(width: 100, height: 60), UnitPoint(x: 0.8, y: 0.25), (60, 0)),
            (PixelSize(width: 100, height: 60), UnitPoint(x: 0.1, y: 0.9), (0, 30)),
            (PixelSize(width: 100, height: 60), UnitPoint(x: 0.45, y: 0.5), (25, 15)),
            (PixelSize(width: 101, height: 61), UnitPoint(x: 0.5, y: 0.5), (31, 16)),
            (PixelSize(width: 100, height: 60), UnitPoint(x: 1, y: 0), (60, 0)),
        ])
    func cropWindow(image: PixelSize, focus: UnitPoint, origin: (Int, Int)) throws {
        let source = GeometryTestSupport.scene(width: image.width, height: image.height)
        let window = PixelSize(width: 40, height: 30)
        let ours = try ImageProcessors.Crop(size: window, focus: focus).process(source)
        let expected = try source.cropped(to: PixelRect(x: origin.0, y: origin.1, width: 40, height: 30))
        #expect(TestPixels.pixels(ours) == TestPixels.pixels(expected))
    }

    @Test("The centre as a focal point is the centre anchor, also at odd sizes")
    func centreIsCentre() throws {
        for (width, height) in [(100, 60), (101, 61), (37, 23)] {
            let source = GeometryTestSupport.scene(width: width, height: height)
            let box = PixelSize(width: 20, height: 10)
            let focused = try ImageProcessors.Crop(size: box, focus: .center).process(source)
            let anchored = try ImageProcessors.Crop(size: box, anchor: .center).process(source)
            #expect(TestPixels.pixels(focused) == TestPixels.pixels(anchored), "\(width)×\(height)")
        }
    }

    @Test("resize(fill)'s window is placed in the covering size's grid: the same bytes as the anchor that lands there")
    func resizeWindow() throws {
        // 400×100 covering a 50×50 box is 200×50: 150 columns to place the window in.
        let source = GeometryTestSupport.scene(width: 400, height: 100)
        let box = PixelSize(width: 50, height: 50)
        for (focus, column) in [(0.6, 95), (0.9, 150), (0.05, 0)] {
            let focused = try ImageProcessors.Resize(size: box, mode: .fill, focus: UnitPoint(x: focus, y: 0.5)).process(source)
            let anchor = UnitPoint(x: Double(column) / 150, y: 0.5)
            let anchored = try ImageProcessors.Resize(size: box, mode: .fill, anchor: anchor).process(source)
            #expect(TestPixels.pixels(focused) == TestPixels.pixels(anchored), "focus x \(focus)")
        }
    }

    /// The red-weighted centroid of a marker on white.
    static func centroid(_ b: Bitmap) -> (x: Double, y: Double) {
        var (sx, sy, total) = (0.0, 0.0, 0.0)
        for y in 0..<b.height {
            for x in 0..<b.width {
                let w = 255 - Double(b.premultipliedPixel(x: x, y: y).g)
                (sx, sy, total) = (sx + w * Double(x), sy + w * Double(y), total + w)
            }
        }
        return (sx / total, sy / total)
    }

    @Test(
        "Given a decode shrunk on load to 1/8 and a full decode, when fill places the window by focus, then both keep the point at the same place, within a pixel",
        arguments: [
            (PixelSize(width: 1600, height: 800), UnitPoint(x: 0.8, y: 0.3), PixelSize(width: 30, height: 60)),
            (PixelSize(width: 800, height: 1600), UnitPoint(x: 0.3, y: 0.8), PixelSize(width: 60, height: 30)),
        ])
    func shrinkOnLoad(image: PixelSize, focus: UnitPoint, box: PixelSize) throws {
        let centre = (x: Int(focus.x * Double(image.width)), y: Int(focus.y * Double(image.height)))
        let full = GeometryTestSupport.square(
            width: image.width, height: image.height, rect: PixelRect(x: centre.x - 40, y: centre.y - 40, width: 80, height: 80),
            inner: RGBAColor(red: 255, green: 0, blue: 0), outer: .white)
        var shrunk = GeometryTestSupport.square(
            width: image.width / 8, height: image.height / 8,
            rect: PixelRect(x: centre.x / 8 - 5, y: centre.y / 8 - 5, width: 10, height: 10),
            inner: RGBAColor(red: 255, green: 0, blue: 0), outer: .white)
        shrunk.sizeBeforeShrinkOnLoad = image
        let resize = ImageProcessors.Resize(size: box, mode: .fill, focus: focus)
        let a = try resize.process(full)
        let b = try resize.process(shrunk)
        #expect(a.size == box && b.size == box)
        let (ca, cb) = (Self.centroid(a), Self.centroid(b))
        #expect(abs(ca.x - cb.x) <= 1 && abs(ca.y - cb.y) <= 1, "full \(ca), shrunk \(cb)")
        // The point is in the middle of the window on the cropped axis (nothing clamps here).
        let middle = box.width < box.height ? (ca.x, Double(box.width) / 2) : (ca.y, Double(box.height) / 2)
        #expect(abs(middle.0 + 0.5 - middle.1) <= 1, "marker centre \(middle.0) in a window of \(box)")
    }

    @Test("Chain text: focus prints only when given; the chain builds the processor the Swift API builds")
    func chainText() throws {
        let registry = StandardProcessors.registry
        try ChainSyntaxChecks.roundTrip(
            "crop(40x30, focus: 0.8, 0.25)", canonical: "crop(40x30, anchor: center, focus: 0.8,0.25)", registry: registry)
        try ChainSyntaxChecks.roundTrip(
            "resize(size: 40x30, focus: (0.2, 1), mode: fill)", canonical: "resize(40x30, mode: fill, anchor: center, focus: 0.2,1)",
            registry: registry)
        let crop = try #require(try registry.chain(from: "crop(40x30, focus: 0.8,0.25)").processors.first as? ImageProcessors.Crop)
        #expect(crop == .crop(to: PixelSize(width: 40, height: 30), focus: UnitPoint(x: 0.8, y: 0.25)))
        #expect(crop.identifier == "crop.v1(40x30, anchor: center, focus: 0.8,0.25)")
        let resize = ImageProcessors.Resize(size: PixelSize(width: 9, height: 9), mode: .fill, focus: UnitPoint(x: 0, y: 0.5))
        #expect(resize.identifier == "resize.v1(9x9, mode: fill, anchor: center, focus: 0,0.5)")
        #expect(resize.decodeHint == DecodeHint(box: PixelSize(width: 9, height: 9), mode: .fill))
    }
}
