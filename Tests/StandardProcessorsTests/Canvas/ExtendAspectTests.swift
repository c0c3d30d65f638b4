import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("extend(aspect: W:H): the smallest canvas of a ratio that holds the image")
struct ExtendAspectTests {
    let source = GeometryTestSupport.scene(width: 37, height: 23)

    @Test(
        "The canvas grows one side, rounded up, and the image is placed as vips gravity places it, to the byte",
        .enabled(if: GeometryTestSupport.vipsAvailable, "vips is not on PATH"),
        arguments: [
            // 37×23 at 16:9: 23·16/9 = 40.9 → 41×23; at 1:1 → 37×37; at 9:16: 37·16/9 = 65.8 → 37×66.
            ("16:9", "center", "centre", 41, 23), ("16:9", "bottomRight", "south-east", 41, 23),
            ("1:1", "top", "north", 37, 37), ("9:16", "bottomLeft", "south-west", 37, 66), ("32:18", "left", "west", 41, 23),
        ])
    func likeVips(ratio: String, anchor: String, direction: String, width: Int, height: Int) throws {
        let ours = try StandardProcessors.registry.chain(from: "extend(aspect: \(ratio), anchor: \(anchor), color: #102030)").process(source)
        let theirs = try GeometryTestSupport.vips(
            source, ["gravity", "{in}", "{out}", direction, "\(width)", "\(height)", "--extend", "background", "--background", "16 32 48"])
        #expect(ours.size == PixelSize(width: width, height: height))
        #expect(TestPixels.pixels(ours) == TestPixels.pixels(theirs))
        #expect(ours.isOpaque)
    }

    @Test(
        "The smallest canvas: one side stays, the other is rounded up; an image at the ratio is its own canvas",
        arguments: [
            (100, 100, 16, 9, 178, 100), (1920, 1080, 16, 9, 1920, 1080), (1000, 2000, 16, 9, 3556, 2000),
            (640, 480, 4, 3, 640, 480), (641, 480, 4, 3, 641, 481), (1, 1, 1000, 1, 1000, 1), (5, 7, 1, 1000, 5, 5000),
        ])
    func canvasRule(w: Int, h: Int, rw: Int, rh: Int, cw: Int, ch: Int) {
        let canvas = AspectRatio(width: rw, height: rh).smallestCanvas(containing: PixelSize(width: w, height: h))
        #expect(canvas == PixelSize(width: cw, height: ch))
        #expect(canvas.width >= w && canvas.height >= h)
    }

    @Test("An image already at the ratio comes back unchanged, whatever the anchor and colour")
    func alreadyAtRatio() throws {
        let image = TestBitmaps.gradient(width: 64, height: 36)
        let result = try StandardProcessors.registry.chain(from: "extend(aspect: 16:9, anchor: topLeft, color: #FF0000)").process(image)
        #expect(result.size == image.size)
        #expect(TestPixels.pixels(result) == TestPixels.pixels(image))
    }

    @Test("A canvas over the bitmap's pixel limit is refused before it is allocated")
    func outputLimit() throws {
        let small = try Bitmap(width: 10, height: 10, fill: .white, limits: BitmapLimits(maxPixelCount: 1000))
        #expect(throws: BitmapError.self) { try ImageProcessors.Extend(aspect: AspectRatio(width: 1000, height: 1)).process(small) }
        #expect(try ImageProcessors.Extend(aspect: AspectRatio(width: 3, height: 1)).process(small).size == PixelSize(width: 30, height: 10))
    }

    @Test("Chain text: the aspect form prints by name after anchor and colour, the size form as before; the Swift API agrees")
    func chainText() throws {
        let registry = StandardProcessors.registry
        try ChainSyntaxChecks.roundTrip(
            "extend(aspect: 32:18)", canonical: "extend(anchor: center, color: #00000000, aspect: 16:9)", registry: registry)
        try ChainSyntaxChecks.roundTrip(
            "extend(800x600, top)", canonical: "extend(800x600, anchor: top, color: #00000000)", registry: registry)
        let parsed = try #require(try registry.chain(from: "extend(aspect: 4:5, color: #FFFFFF)").processors.first as? ImageProcessors.Extend)
        #expect(parsed == .extend(toAspect: AspectRatio(width: 4, height: 5), color: .white))
        #expect(parsed.identifier == "extend.v1(anchor: center, color: #FFFFFFFF, aspect: 4:5)")
        #expect(throws: ChainError.self) { try registry.chain(from: "extend(800x600, aspect: 16:9)") }
        #expect(throws: ChainError.self) { try registry.chain(from: "extend(color: #FFFFFF)") }
    }
}
