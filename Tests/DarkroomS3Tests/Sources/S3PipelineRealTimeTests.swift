import DarkroomCache
import DarkroomChains
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomS3
import DarkroomSources
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

@Suite("s3:// sources through the pipeline: originals cache and fleet-wide single flight", .realTime, .serialized)
struct S3PipelineRealTimeTests {
    @Test("Two pipelines sharing a cache and leases download a listed object once; a cache hit asks nothing of the server")
    func singleFlight() async throws {
        let moto = try await MotoS3Server()
        try await moto.createBucket("uploads")
        let endpoint = moto.endpoint(alias: S3Endpoint.defaultAlias)
        let client = S3Client(endpoint: endpoint, pool: BlockingWorkPool(threadCount: 4))
        let etag = try await client.putObject(
            bucket: "uploads", key: "a.jpg", bytes: try TestImages.gradient(.jpeg, width: 64, height: 48), contentType: nil, cacheControl: nil)
        let counter = CountingS3Reader(client)
        let configuration = S3Configuration(endpoints: [endpoint], allowedBuckets: [S3Bucket(endpoint: "default", name: "uploads")])
        let directory = try TestImages.makeDirectory("s3-pipeline")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let leases = MemoryWorkLeases()
        func pipeline() throws -> ImagePipeline {
            var settings = ImagePipeline.Configuration()
            settings.providers =
                StandardProviders.factories + [
                    ProviderFactory(schemes: ["s3"]) { _ in S3Provider(configuration: configuration) { _, _ in counter } }
                ]
            settings.diskCache = try DiskCache(directory: directory + "/cache")
            settings.leases = leases
            settings.memoryCacheBytes = 0
            return ImagePipeline(configuration: settings)
        }
        let (one, two) = (try pipeline(), try pipeline())
        let source = SourceReference("s3://uploads;etag=\(etag)/a.jpg")
        async let png = one.retrieve(ImageRequest(source: source, chain: ProcessorChain(), output: OutputOptions(format: .png)))
        async let webp = two.retrieve(ImageRequest(source: source, chain: ProcessorChain(), output: OutputOptions(format: .webp)))
        let results = try await [png, webp]
        #expect(results.map(\.size) == [PixelSize(width: 64, height: 48), PixelSize(width: 64, height: 48)])
        #expect(counter.count("get") == 1, "one download across both pipelines")

        let before = counter.total
        let hit = try await one.retrieve(ImageRequest(source: source, chain: ProcessorChain(), output: OutputOptions(format: .png)))
        #expect(hit.origin == .disk)
        #expect(counter.total == before, "a listed object's cache hit makes no request")
    }
}
