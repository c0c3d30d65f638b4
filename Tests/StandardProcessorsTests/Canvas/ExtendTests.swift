import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("extend: a larger canvas, the image placed by an anchor")
struct ExtendTests {
    let source = GeometryTestSupport.scene(width: 37, height: 23)
    let color = RGBAColor(red: 16, green: 32, blue: 48)

    @Test(
        "Named anchors place the image as vips gravity does, to the byte",
        .enabled(if: GeometryTestSupport.vipsAvailable, "vips is not on PATH"),
        arguments: [
            ("center", "centre"), ("top", "north"), ("bottom", "south"), ("left", "west"), ("right", "east"),
            ("topLeft", "north-west"), ("topRight", "north-east"), ("bottomLeft", "south-west"), ("bottomRight", "south-east"),
        ])
    func namedAnchors(anchor: String, direction: String) throws {
        let ours = try StandardProcessors.registry.chain(from: "extend(64x48, anchor: \(anchor), color: #102030)").process(source)
        let theirs = try GeometryTestSupport.vips(
            source, ["gravity", "{in}", "{out}", direction, "64", "48", "--extend", "background", "--background", "16 32 48"])
        #expect(ours.size == PixelSize(width: 64, height: 48))
        #expect(TestPixels.pixels(ours) == TestPixels.pixels(theirs))
        #expect(ours.isOpaque)
    }

    @Test(
        "A unit-point anchor puts the image at that fraction of the added space, rounded down, as vips embed is told",
        .enabled(if: GeometryTestSupport.vipsAvailable, "vips is not on PATH"))
    func unitPoint() throws {
        let ours = try ImageProcessors.Extend(size: PixelSize(width: 60, height: 40), anchor: UnitPoint(x: 0.25, y: 0.75), color: color)
            .process(source)
        // (60 − 37) × 0.25 = 5.75 → 5; (40 − 23) × 0.75 = 12.75 → 12.
        let theirs = try GeometryTestSupport.vips(
            source, ["embed", "{in}", "{out}", "5", "12", "60", "40", "--extend", "background", "--background", "16 32 48"])
        #expect(TestPixels.pixels(ours) == TestPixels.pixels(theirs))
    }

    @Test(
        "Never shrinks: an axis where the image is larger, or left out, keeps the image's size",
        arguments: [(80, 70, 100, 70), (40, 30, 100, 50), (120, 0, 120, 50), (0, 90, 100, 90), (100, 50, 100, 50)])
    func neverShrinks(width: Int, height: Int, expectedWidth: Int, expectedHeight: Int) throws {
        let image = TestBitmaps.gradient(width: 100, height: 50)
        let result = try ImageProcessors.Extend(size: PixelSize(width: width, height: height), color: .white).process(image)
        #expect(result.size == PixelSize(width: expectedWidth, height: expectedHeight))
        if result.size == image.size { #expect(TestPixels.pixels(result) == TestPixels.pixels(image)) }
    }

    @Test("The default colour is transparent: the result has alpha, the image's pixels are unchanged")
    func transparentByDefault() throws {
        let extend = try #require(try StandardProcessors.registry.chain(from: "extend(41x27, topLeft)").processors.first)
        #expect(extend.introducesTransparency)
        let result = try extend.process(source)
        #expect(!result.isOpaque)
        #expect(result.premultipliedPixel(x: 40, y: 26) == (0, 0, 0, 0))
        #expect(try TestPixels.pixels(result.cropped(to: PixelRect(x: 0, y: 0, width: 37, height: 23))) == TestPixels.pixels(source))
        #expect(!ImageProcessors.Extend(size: PixelSize(width: 50, height: 50), color: .white).introducesTransparency)
    }

    @Test("A canvas over the bitmap's pixel limit is refused before it is allocated")
    func outputLimit() throws {
        let small = try Bitmap(width: 10, height: 10, fill: .white, limits: BitmapLimits(maxPixelCount: 1000))
        #expect(throws: BitmapError.self) { try ImageProcessors.Extend(size: PixelSize(width: 100, height: 100)).process(small) }
        #expect(try ImageProcessors.Extend(size: PixelSize(width: 40, height: 25)).process(small).size == PixelSize(width: 40, height: 25))
    }

    @Test("Chain text: defaults filled in, a one-sided box kept, a wrong anchor named with a suggestion")
    func chainText() throws {
        let registry = StandardProcessors.registry
        #expect(try registry.chain(from: "extend(800x600)").canonicalText == "extend(800x600, anchor: center, color: #00000000)")
        #expect(try registry.chain(from: "extend(800x, color: #ffffff)").canonicalText == "extend(800x, anchor: center, color: #FFFFFFFF)")
        #expect(try registry.chain(from: "extend(x90, (0.25, 1))").identifier == "extend.v1(x90, anchor: (0.25, 1), color: #00000000)")
        let error = #expect(throws: ChainError.self) { try registry.chain(from: "extend(800x600, anchor: bottomRigt)") }
        #expect(error?.suggestion == "bottomRight")
        #expect(throws: ChainError.self) { try registry.chain(from: "extend(anchor: top)") }
    }
}
