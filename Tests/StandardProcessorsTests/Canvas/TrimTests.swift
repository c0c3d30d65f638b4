import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("trim: removing a uniform border")
struct TrimTests {
    static let white = RGBAColor.white
    static let grey = RGBAColor(red: 200, green: 190, blue: 180)

    /// A 37×23 scene framed by `left`, `top`, `right`, `bottom` pixels of `border`.
    static func framed(_ border: RGBAColor, _ left: Int, _ top: Int, _ right: Int, _ bottom: Int) throws -> Bitmap {
        let scene = GeometryTestSupport.scene(width: 37, height: 23)
        let size = PixelSize(width: 37 + left + right, height: 23 + top + bottom)
        let anchor = UnitPoint(
            x: left + right == 0 ? 0 : Double(left) / Double(left + right), y: top + bottom == 0 ? 0 : Double(top) / Double(top + bottom))
        return try ImageProcessors.Extend(size: size, anchor: anchor, color: border).process(scene)
    }

    @Test(
        "The box is exactly vips find_trim's, with the background set to the corner colour",
        .enabled(if: GeometryTestSupport.vipsAvailable, "vips is not on PATH"),
        arguments: [(5, 7, 3, 11, 10.0), (0, 4, 9, 0, 10), (1, 1, 1, 1, 0), (12, 0, 0, 6, 40)])
    func againstVips(left: Int, top: Int, right: Int, bottom: Int, threshold: Double) throws {
        for border in [Self.white, Self.grey] {
            let image = try Self.framed(border, left, top, right, bottom)
            let trim = ImageProcessors.Trim(threshold: threshold)
            let expected = try CanvasTestSupport.vipsFindTrim(image, background: border, threshold: threshold)
            #expect(trim.contentRect(of: image) == expected)
            #expect(expected == PixelRect(x: left, y: top, width: 37, height: 23))
            let result = try trim.process(image)
            #expect(TestPixels.pixels(result) == TestPixels.pixels(GeometryTestSupport.scene(width: 37, height: 23)))
        }
    }

    @Test(
        "On a photo with a border added, the box is within 1 px of vips find_trim's",
        .enabled(if: GeometryTestSupport.vipsAvailable, "vips is not on PATH"),
        .enabled(if: CanvasTestSupport.samplePath("chelsea.png") != nil, "../shared/samples/chelsea.png is not there"))
    func photo() throws {
        let photo = try CanvasTestSupport.samplePhoto("chelsea.png")
        let image = try ImageProcessors.Extend(
            size: PixelSize(width: photo.width + 30, height: photo.height + 17), anchor: UnitPoint(x: 0.4, y: 0.6), color: Self.white
        ).process(photo)
        let ours = try #require(ImageProcessors.Trim().contentRect(of: image))
        let theirs = try CanvasTestSupport.vipsFindTrim(image, background: Self.white, threshold: 10)
        #expect(abs(ours.x - theirs.x) <= 1 && abs(ours.y - theirs.y) <= 1)
        #expect(abs(ours.maxX - theirs.maxX) <= 1 && abs(ours.maxY - theirs.maxY) <= 1)
    }

    @Test("A given colour is the border's; pixels within the threshold of it count as border")
    func givenColorAndThreshold() throws {
        let near = RGBAColor(red: 205, green: 195, blue: 185)
        let image = GeometryTestSupport.square(
            width: 30, height: 20, rect: PixelRect(x: 4, y: 3, width: 10, height: 8), inner: near, outer: Self.grey)
        #expect(ImageProcessors.Trim(threshold: 5).contentRect(of: image) == nil)
        #expect(ImageProcessors.Trim(threshold: 4).contentRect(of: image) == PixelRect(x: 4, y: 3, width: 10, height: 8))
        // Told the border is the inner colour, everything outside the rectangle is content.
        #expect(ImageProcessors.Trim(threshold: 0, color: near).contentRect(of: image) == PixelRect(x: 0, y: 0, width: 30, height: 20))
    }

    @Test("An image that is all border is returned unchanged")
    func allBorder() throws {
        let solid = TestBitmaps.solid(Self.grey, width: 9, height: 5)
        let result = try ImageProcessors.Trim().process(solid)
        #expect(result.size == solid.size)
        #expect(TestPixels.pixels(result) == TestPixels.pixels(solid))
    }

    @Test("A transparent border is trimmed by alpha: the corner colour is transparent")
    func transparentBorder() throws {
        let image = GeometryTestSupport.square(
            width: 16, height: 12, rect: PixelRect(x: 2, y: 5, width: 3, height: 4), inner: RGBAColor(red: 9, green: 9, blue: 9, alpha: 128),
            outer: .clear)
        let result = try ImageProcessors.Trim().process(image)
        #expect(result.size == PixelSize(width: 3, height: 4))
    }

    @Test("Chain text: the corner default prints and reads back; a threshold out of range is refused with its column")
    func chainText() throws {
        let registry = StandardProcessors.registry
        #expect(try registry.chain(from: "trim").canonicalText == "trim(threshold: 10, color: corner)")
        #expect(try registry.chain(from: "trim(threshold: 10, color: corner)").canonicalText == "trim(threshold: 10, color: corner)")
        #expect(try registry.chain(from: "trim(2, #ffffff)").identifier == "trim.v1(threshold: 2, color: #FFFFFFFF)")
        let error = #expect(throws: ChainError.self) { try registry.chain(from: "trim(threshold: 300)") }
        #expect(error?.column == 17)
        #expect(throws: ChainError.self) { try registry.chain(from: "trim(color: top)") }
    }
}
