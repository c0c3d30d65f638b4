import DarkroomCache
import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomSources
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Glibc
import Testing

@Suite("ImagePipeline: renditions from one decode")
struct ImagePipelineRenditionsTests {
    /// An 800×600 JPEG under a fresh directory, and a pipeline with a disk cache there.
    struct Fixture {
        let dir: String
        let source: SourceReference
        var configuration = ImagePipeline.Configuration()

        init() throws {
            dir = try TestImages.makeDirectory("renditions")
            try TestImages.write(try TestImages.gradient(.jpeg, width: 800, height: 600, tint: 70), to: "\(dir)/a.jpg")
            source = SourceReference("\(dir)/a.jpg")
            configuration.sourcePolicy = .interactive
            configuration.diskCache = try DiskCache(directory: "\(dir)/cache")
        }

        /// A new pipeline each time: a new process, with only the disk cache in common.
        var pipeline: ImagePipeline { ImagePipeline(configuration: configuration) }

        func remove() { try? FileManager.default.removeItem(atPath: dir) }
    }

    static func rendition(_ name: String, _ chain: String, format: ImageFormat = .webp) throws -> RenditionRequest {
        RenditionRequest(name: name, chain: try PipelineTestSupport.chain(chain), output: OutputOptions(format: format))
    }

    /// The single-output request equivalent to `rendition` (still, as renditions are).
    static func single(_ rendition: RenditionRequest, source: SourceReference) -> ImageRequest {
        ImageRequest(source: source, chain: rendition.chain, output: rendition.output)
    }

    @Test("The shared decode covers every hint: the dominating one, none when one rendition needs the full image, a fill box otherwise")
    func sharedHint() {
        let fit = { (w: Int, h: Int) in DecodeHint(box: PixelSize(width: w, height: h), mode: .fit) }
        #expect(RenditionDecode.sharedHint([fit(100, 100), fit(400, 400), fit(50, 50)]) == fit(400, 400))
        #expect(RenditionDecode.sharedHint([fit(100, 100), nil]) == nil)
        #expect(RenditionDecode.sharedHint([fit(400, 100), fit(100, 400)]) == DecodeHint(box: PixelSize(width: 400, height: 400), mode: .fill))
        let fill = DecodeHint(box: PixelSize(width: 200, height: 200), mode: .fill)
        #expect(RenditionDecode.sharedHint([fit(200, 200), fill]) == fill)
        #expect(RenditionDecode.covers(DecodeHint(box: PixelSize(width: 9, height: 9), mode: .stretch), fit(9, 9)))
        #expect(!RenditionDecode.covers(fit(9, 9), DecodeHint(box: PixelSize(width: 9, height: 9), mode: .stretch)))
    }

    @Test(
        "Given two renditions, the one whose decode is its own shares the single job's key (a single job then hits its bytes); the other's key records the decode and its parent"
    )
    func keysSharedAndDerived() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let large = try Self.rendition("large", "downsample(400x400)")
        let small = try Self.rendition("small", "downsample(100x100)")

        let made = try await fixture.pipeline.retrieveRenditions(source: fixture.source, [large, small])
        let largeResult = try made.results[0].get()
        let smallResult = try made.results[1].get()
        #expect(largeResult.origin == .miss && largeResult.size == PixelSize(width: 400, height: 300))
        #expect(smallResult.origin == .miss && smallResult.size == PixelSize(width: 100, height: 75))
        #expect(!made.keys[0].contains("|decode="))
        #expect(made.keys[1].hasSuffix("|decode=fit:400x400|from=downsample.v1(400x400)"), "\(made.keys[1])")

        // The single job of the large rendition finds the rendition's bytes: they are its own.
        let singleLarge = try await fixture.pipeline.retrieve(Self.single(large, source: fixture.source))
        #expect(singleLarge.origin == .disk)
        #expect(singleLarge.bytes == largeResult.bytes)
        // The single job of the small one never reads the rendition's entry: it makes its own, and
        // those are the bytes a fresh pipeline without the renditions makes too.
        let singleSmall = try await fixture.pipeline.retrieve(Self.single(small, source: fixture.source))
        #expect(singleSmall.origin == .miss)
        var alone = fixture.configuration
        alone.diskCache = nil
        let largeAlone = try await ImagePipeline(configuration: alone).retrieve(Self.single(large, source: fixture.source))
        #expect(largeAlone.bytes == largeResult.bytes)
    }

    @Test("A second attempt makes only the renditions missing from the cache, from the same decode")
    func retryMakesOnlyMissing() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let renditions = [try Self.rendition("large", "downsample(400x400)"), try Self.rendition("small", "downsample(100x100)", format: .png)]
        let first = try await fixture.pipeline.retrieveRenditions(source: fixture.source, renditions)
        let smallPath = try #require(try first.results[1].get().cachePath)
        try FileManager.default.removeItem(atPath: smallPath)

        let second = try await fixture.pipeline.retrieveRenditions(source: fixture.source, renditions)
        #expect(try second.results[0].get().origin == .disk)
        #expect(try second.results[1].get().origin == .miss)
        #expect(try second.results[1].get().bytes == first.results[1].get().bytes)
        #expect(second.timings.decode != nil)

        let third = try await fixture.pipeline.retrieveRenditions(source: fixture.source, renditions)
        #expect(third.sourceOrigin == nil && third.timings.decode == nil)
        #expect(third.results.allSatisfy { (try? $0.get().origin) == .disk })
    }

    @Test("A rendition over a limit fails alone; the others are made")
    func renditionFailsAlone() async throws {
        var fixture = try Fixture()
        defer { fixture.remove() }
        fixture.configuration.limits.maxOutputDimension = 200
        let made = try await fixture.pipeline.retrieveRenditions(
            source: fixture.source, [try Self.rendition("large", "downsample(400x400)"), try Self.rendition("small", "downsample(100x100)")])
        #expect(throws: RenderError.self) { try made.results[0].get() }
        #expect(try made.results[1].get().size == PixelSize(width: 100, height: 75))
    }

    @Test("More renditions than the limit, or more pixels together, are refused with their codes")
    func limits() async throws {
        var fixture = try Fixture()
        defer { fixture.remove() }
        fixture.configuration.limits.maxRenditions = 1
        let two = [try Self.rendition("a", "downsample(100x100)"), try Self.rendition("b", "downsample(50x50)")]
        await #expect { try await fixture.pipeline.retrieveRenditions(source: fixture.source, two) } throws: { error in
            (error as? RenderError)?.code == .tooManyRenditions
        }
        fixture.configuration.limits.maxRenditions = 16
        fixture.configuration.limits.maxRenditionPixels = 100 * 75
        await #expect { try await fixture.pipeline.retrieveRenditions(source: fixture.source, two) } throws: { error in
            (error as? RenderError)?.code == .renditionPixels
        }
    }

    @Test("Two pipelines sharing a disk cache and leases, given one set of renditions at once, decode once; the other waits for the results")
    func leasedOnce() async throws {
        let dir = try TestImages.makeDirectory("renditions-leases")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let jpeg = try TestImages.gradient(.jpeg, width: 320, height: 240, tint: 50)
        let server = try TestHTTPServer { _ in
            usleep(400_000)  // keep the first computation going while the second arrives
            return .ok(jpeg)
        }
        defer { server.stop() }
        let leases = MemoryWorkLeases()
        func pipeline() throws -> ImagePipeline {
            var configuration = ImagePipeline.Configuration()
            configuration.sourcePolicy.allowedSourcePrefixes = [server.origin + "/"]
            configuration.diskCache = try DiskCache(directory: "\(dir)/cache")
            configuration.leases = leases
            configuration.maxConcurrentProcessing = 2
            return ImagePipeline(configuration: configuration)
        }
        let renditions = [try Self.rendition("a", "downsample(100x100)"), try Self.rendition("b", "downsample(30x30)")]
        let source = SourceReference(server.url("/shared.jpg"))
        let first = try pipeline()
        let second = try pipeline()

        async let a = first.retrieveRenditions(source: source, renditions)
        async let b = second.retrieveRenditions(source: source, renditions)
        let made = try await [a, b]

        #expect(made.filter { $0.timings.decode != nil }.count == 1)
        let origins = made.map { result in result.results.map { (try? $0.get().origin)?.rawValue ?? "failed" } }
        // The waiter polls the shared cache until every rendition is there; a poll that found the
        // first one before the second was written has already kept it in memory.
        #expect(origins.filter { $0 == ["miss", "miss"] }.count == 1)
        #expect(origins.contains { $0.allSatisfy { $0 == "disk" || $0 == "memory" } })
        #expect(try made[0].results[1].get().bytes == made[1].results[1].get().bytes)
        #expect(server.requestCount("/shared.jpg") == 1)
    }
}
