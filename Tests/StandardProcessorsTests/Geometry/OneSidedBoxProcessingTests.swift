import DarkroomChains
import DarkroomCore
import DarkroomStandardProcessors
import DarkroomTestSupport
import Testing

@Suite("Width-only and height-only boxes: downsample, resize and crop")
struct OneSidedBoxProcessingTests {
    func size(_ text: String, _ width: Int, _ height: Int) throws -> PixelSize {
        try GeometryTestSupport.processor(text).process(TestBitmaps.gradient(width: width, height: height)).size
    }

    @Test(
        "Given a one-sided box, the given side is met and the other follows the mode's rule",
        arguments: [
            // (chain, source width, height, expected width, height)
            ("downsample(400x)", 1000, 600, 400, 240),
            ("downsample(x300)", 1000, 600, 500, 300),
            ("downsample(400x)", 300, 2000, 300, 2000),  // already narrower: unchanged, however tall
            ("downsample(x300)", 900, 200, 900, 200),
            ("resize(400x)", 100, 50, 400, 200),  // fit may enlarge
            ("resize(x30)", 100, 50, 60, 30),
            ("resize(400x, mode: stretch)", 1000, 600, 400, 600),  // only the given side changes
            ("resize(x30, stretch)", 100, 50, 100, 30),
            ("crop(40x)", 100, 60, 40, 60),
            ("crop(x30, anchor: top)", 100, 60, 100, 30),
            ("crop(400x)", 100, 60, 100, 60),  // wider than the image: the image's width
        ])
    func sizes(chain: String, w: Int, h: Int, ew: Int, eh: Int) throws {
        #expect(try size(chain, w, h) == PixelSize(width: ew, height: eh))
    }

    @Test("A one-sided downsample gives what the same box with the free side at 65535 gives, pixel for pixel")
    func sameAsBoundedBox() throws {
        let source = TestBitmaps.noise(width: 240, height: 90)
        let one = try GeometryTestSupport.processor("downsample(100x)").process(source)
        let two = try GeometryTestSupport.processor("downsample(100x65535)").process(source)
        #expect(one.size == PixelSize(width: 100, height: 38))
        #expect(one.storage == two.storage)
    }

    @Test("A crop of one side keeps the other whole and places the cut by the anchor")
    func cropPlacement() throws {
        let source = TestBitmaps.gradient(width: 100, height: 100)  // red grows with x, green with y
        let right = try ImageProcessors.Crop(size: .width(40), anchor: .right).process(source)
        #expect(right.size == PixelSize(width: 40, height: 100))
        #expect(right.premultipliedPixel(x: 0, y: 0).r > 140 && right.premultipliedPixel(x: 0, y: 0).g < 3)
        let bottom = try ImageProcessors.Crop(size: .height(20), anchor: .bottom).process(source)
        #expect(bottom.size == PixelSize(width: 100, height: 20))
        #expect(bottom.premultipliedPixel(x: 0, y: 19).g > 250 && bottom.premultipliedPixel(x: 0, y: 0).r < 3)
    }

    @Test("The decode hint of a one-sided box asks for a shrink on load bounded by the given side only")
    func decodeHints() throws {
        let bounded = PixelSize(width: 400, height: 65_535)
        #expect(ImageProcessors.Downsample(size: .width(400)).decodeHint == DecodeHint(box: bounded, mode: .fit))
        #expect(ImageProcessors.Resize(size: .width(400)).decodeHint == DecodeHint(box: bounded, mode: .fit))
        #expect(ImageProcessors.Resize(size: .width(400), mode: .stretch).decodeHint == DecodeHint(box: bounded, mode: .stretch))
        #expect(ImageProcessors.Resize(size: .width(400), mode: .fill).decodeHint == DecodeHint(box: bounded, mode: .fit))
        let chain = try GeometryTestSupport.registry.chain(from: "downsample(x300)|>blur(1)")
        let hint = try #require(chain.decodeHint)
        // A 6028×3391 JPEG fitted to 300 high is 533.3×300: the decoder may shrink to that, no further.
        #expect(hint.targetSize(for: PixelSize(width: 6028, height: 3391)) == PixelSize(width: 534, height: 300))
        // stretch keeps the free side: no shrink on that axis.
        let stretch = try #require(ImageProcessors.Resize(size: .width(400), mode: .stretch).decodeHint)
        #expect(stretch.targetSize(for: PixelSize(width: 6028, height: 3391)) == PixelSize(width: 400, height: 3391))
    }

    @Test("Given a bitmap shrunk on load, a one-sided downsample targets the size before the shrink")
    func usesLogicalSize() throws {
        var decoded = TestBitmaps.gradient(width: 754, height: 424)
        decoded.sizeBeforeShrinkOnLoad = PixelSize(width: 6028, height: 3391)
        let result = try ImageProcessors.Downsample(size: .height(300)).process(decoded)
        #expect(result.size == PixelSize(width: 533, height: 300))
    }

    @Test("The Swift API's fill with a one-sided box fits, and prints the box one-sided")
    func swiftFill() throws {
        let source = TestBitmaps.gradient(width: 100, height: 50)
        let fill = try ImageProcessors.Resize(size: .width(40), mode: .fill).process(source)
        let fit = try ImageProcessors.Resize(size: .width(40)).process(source)
        #expect(fill.size == PixelSize(width: 40, height: 20))
        #expect(fill.storage == fit.storage)
        #expect(ImageProcessors.Downsample(size: .height(300)).invocation.canonicalText == "downsample(x300)")
        #expect(ImageProcessors.Crop(size: .width(4)).invocation.canonicalText == "crop(4x, anchor: center)")
    }
}
