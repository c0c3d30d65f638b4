import DarkroomCache
import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomSources
import DarkroomStandardProcessors
import DarkroomTestSupport
import Foundation
import Testing

@Suite("ImagePipeline fetches a watermark's image as it fetches a source")
struct ImagePipelineWatermarkTests {
    static let png = OutputOptions(format: .png)

    /// The result a watermark chain should give: the source decoded, the logo decoded, drawn by
    /// the processor itself (its pixels are checked against a plain computation elsewhere).
    static func expected(photo: [UInt8], logo: [UInt8], _ processor: ImageProcessors.Watermark) throws -> [UInt8] {
        let coders = CoderRegistry.standard
        let base = try coders.decode(EncodedImage(bytes: photo, sourceName: "photo")).bitmap
        let mark = try coders.decode(EncodedImage(bytes: logo, sourceName: "logo")).bitmap
        return TestPixels.pixels(try processor.draw(mark, over: base))
    }

    static func pixels(_ result: ImageResult) throws -> [UInt8] {
        TestPixels.pixels(try CoderRegistry.standard.decode(EncodedImage(bytes: result.bytes, sourceName: "result")).bitmap)
    }

    @Test("Over HTTP: drawn into the result, downloaded once for many jobs, in this process and the next")
    func http() async throws {
        let dir = try TestImages.makeDirectory("watermark")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = try TestImages.gradient(.jpeg, width: 200, height: 100, tint: 30)
        let other = try TestImages.gradient(.jpeg, width: 160, height: 90, tint: 200)
        let logo = try TestImages.gradient(.png, width: 40, height: 20, tint: 250)
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/photo.jpg": return .ok(photo)
            case "/other.jpg": return .ok(other)
            case "/logo.png": return .ok(logo)
            default: return .status(404)
            }
        }
        defer { server.stop() }
        let disk = try DiskCache(directory: "\(dir)/cache")
        let configuration = ImagePipelineHTTPTests.configuration(allowing: server, disk: disk)
        let text = #"watermark("\#(server.url("/logo.png"))", margin: 4, scale: 0.25, opacity: 0.6)"#
        let chain = try PipelineTestSupport.chain(text)
        let processor = try #require(chain.processors.first as? ImageProcessors.Watermark)

        let pipeline = ImagePipeline(configuration: configuration)
        let first = try await pipeline.retrieve(ImageRequest(source: SourceReference(server.url("/photo.jpg")), chain: chain, output: Self.png))
        #expect(first.size == PixelSize(width: 200, height: 100))
        #expect(try Self.pixels(first) == Self.expected(photo: photo, logo: logo, processor))
        let second = try await pipeline.retrieve(ImageRequest(source: SourceReference(server.url("/other.jpg")), chain: chain, output: Self.png))
        #expect(try Self.pixels(second) == Self.expected(photo: other, logo: logo, processor))
        #expect(server.requestCount("/logo.png") == 1)

        // Another worker on the same shared cache finds the original on disk.
        let next = ImagePipeline(configuration: configuration)
        let blurred = try PipelineTestSupport.chain("blur(1)|>" + text)
        _ = try await next.retrieve(ImageRequest(source: SourceReference(server.url("/photo.jpg")), chain: blurred, output: Self.png))
        #expect(server.requestCount("/logo.png") == 1)

        // A new version is a new original: fetched again, once.
        let bumped = try PipelineTestSupport.chain(#"watermark("\#(server.url("/logo.png"))", version: 2)"#)
        for _ in 0..<2 {
            _ = try await next.retrieve(ImageRequest(source: SourceReference(server.url("/other.jpg")), chain: bumped, output: Self.png))
        }
        #expect(server.requestCount("/logo.png") == 2)
    }

    @Test("A watermark that cannot be fetched fails with the source's own code, naming its address")
    func fetchFailures() async throws {
        let photo = try TestImages.gradient(.jpeg, width: 64, height: 48)
        let server = try TestHTTPServer { request in request.path == "/photo.jpg" ? .ok(photo) : .status(404) }
        defer { server.stop() }
        let pipeline = ImagePipeline(configuration: ImagePipelineHTTPTests.configuration(allowing: server))
        let source = SourceReference(server.url("/photo.jpg"))
        let missing = server.url("/gone.png")
        await #expect {
            _ = try await pipeline.retrieve(ImageRequest(source: source, chain: try PipelineTestSupport.chain(#"watermark("\#(missing)")"#)))
        } throws: { error in
            guard let error = error as? SourceError else { return false }
            return error.code == .notFound && !error.isTransient && "\(error)".contains(missing)
        }
        // An address the source policy refuses is refused for a watermark too, before connecting.
        await #expect {
            _ = try await pipeline.retrieve(
                ImageRequest(source: source, chain: try PipelineTestSupport.chain(#"watermark("http://127.0.0.9:1/logo.png")"#)))
        } throws: { ($0 as? SourceError)?.code == .refused }
    }

    @Test("A rendition's chain draws a watermark too, fetched before the one decode")
    func renditions() async throws {
        let dir = try TestImages.makeDirectory("watermark-renditions")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = try TestImages.gradient(.png, width: 90, height: 70)
        let logo = try TestImages.gradient(.png, width: 30, height: 30, tint: 10)
        try TestImages.write(photo, to: "\(dir)/photo.png")
        try TestImages.write(logo, to: "\(dir)/logo.png")
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy = .interactive
        let pipeline = ImagePipeline(configuration: configuration)
        let marked = try PipelineTestSupport.chain(#"watermark("\#(dir)/logo.png", anchor: center, opacity: 0.5)"#)
        let processor = try #require(marked.processors.first as? ImageProcessors.Watermark)
        let made = try await pipeline.retrieveRenditions(
            source: SourceReference("\(dir)/photo.png"),
            [
                RenditionRequest(name: "plain", chain: try PipelineTestSupport.chain("blackWhite"), output: Self.png),
                RenditionRequest(name: "marked", chain: marked, output: Self.png),
            ])
        #expect(try Self.pixels(try made.results[1].get()) == Self.expected(photo: photo, logo: logo, processor))
        #expect(try made.results[0].get().size == PixelSize(width: 90, height: 70))
    }

    @Test("From a file; one over 4 MP fails with resource.too-large before it is decoded")
    func fileAndPixelCap() async throws {
        let dir = try TestImages.makeDirectory("watermark-file")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = try TestImages.gradient(.jpeg, width: 90, height: 70)
        let logo = try TestImages.gradient(.png, width: 30, height: 30, tint: 10)
        let huge = try TestImages.gradient(.png, width: 2001, height: 2000)
        try TestImages.write(photo, to: "\(dir)/photo.jpg")
        try TestImages.write(logo, to: "\(dir)/logo.png")
        try TestImages.write(huge, to: "\(dir)/huge.png")
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy = .interactive
        let pipeline = ImagePipeline(configuration: configuration)
        let chain = try PipelineTestSupport.chain(#"watermark("\#(dir)/logo.png", anchor: topLeft, scale: 0.5)"#)
        let processor = try #require(chain.processors.first as? ImageProcessors.Watermark)
        let result = try await pipeline.retrieve(ImageRequest(source: SourceReference("\(dir)/photo.jpg"), chain: chain, output: Self.png))
        #expect(try Self.pixels(result) == Self.expected(photo: photo, logo: logo, processor))
        await #expect {
            _ = try await pipeline.retrieve(
                ImageRequest(source: SourceReference("\(dir)/photo.jpg"), chain: try PipelineTestSupport.chain(#"watermark("\#(dir)/huge.png")"#)))
        } throws: { ($0 as? ResourceError)?.code == .tooLarge }
    }
}
