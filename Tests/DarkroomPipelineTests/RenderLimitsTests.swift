import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomTestSupport
import Testing

@Suite("RenderLimits: limits passed down from the configuration to every allocation")
struct RenderLimitsTests {
    static func request(_ chain: String) throws -> RenderRequest {
        RenderRequest(
            source: EncodedImage(bytes: try TestImages.gradient(.png, width: 40, height: 30, tint: 120), sourceName: "a.png"),
            chain: try PipelineTestSupport.chain(chain))
    }

    @Test("Given a 10000-pixel bitmap ceiling, when a chain enlarges past it, then the render fails naming it, while a standard renderer succeeds")
    func processorsAllocateUnderTheConfiguredCeiling() throws {
        let request = try Self.request("resize(120x100, mode: stretch)")
        let small = ImageRenderer(limits: RenderLimits(bitmap: BitmapLimits(maxPixelCount: 10_000)))
        #expect(throws: BitmapError.tooLarge(width: 120, height: 100, maxPixelCount: 10_000)) {
            try small.render(request)
        }
        #expect(try ImageRenderer().render(request).size == PixelSize(width: 120, height: 100))
    }

    @Test("Given a bitmap ceiling below the source's size, when rendered, then the decoder refuses to allocate it")
    func decodersAllocateUnderTheConfiguredCeiling() throws {
        let renderer = ImageRenderer(limits: RenderLimits(bitmap: BitmapLimits(maxPixelCount: 1_000)))
        #expect {
            try renderer.render(try Self.request("blur(1)"))
        } throws: { ($0 as? CodecError)?.code == .tooLarge }
    }
}
