import DarkroomCache
import DarkroomCore
import DarkroomPipeline
import DarkroomS3
import DarkroomSources
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

/// What checking an object's ETag costs a cache hit (docs/object-storage.md#sources): 200 result
/// cache hits of a listed (pinned) source, which make no request, against 200 HEADs to moto (what
/// a HEAD per job would add) and 200 hits of an unpinned source (a GET each). A measurement, not
/// a check: it runs only with DARKROOM_S3_MEASURE=1 and prints its figures.
@Suite("The cost of an object's identity on a cache hit", .realTime, .serialized)
struct S3IdentityCostRealTimeTests {
    @Test(
        "200 cache hits: pinned (no request), a HEAD each, unpinned (a GET each)",
        .enabled(if: ProcessInfo.processInfo.environment["DARKROOM_S3_MEASURE"] == "1"))
    func measure() async throws {
        let moto = try await MotoS3Server()
        try await moto.createBucket("uploads")
        let endpoint = moto.endpoint(alias: S3Endpoint.defaultAlias)
        let pool = BlockingWorkPool(threadCount: 4)
        let client = S3Client(endpoint: endpoint, pool: pool)
        let bytes = try TestImages.gradient(.jpeg, width: 1200, height: 800)
        let etag = try await client.putObject(bucket: "uploads", key: "a.jpg", bytes: bytes, contentType: nil, cacheControl: nil)
        let directory = try TestImages.makeDirectory("s3-identity")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var settings = ImagePipeline.Configuration()
        let configuration = S3Configuration(endpoints: [endpoint], allowedBuckets: [S3Bucket(endpoint: "default", name: "uploads")])
        settings.providers = StandardProviders.factories + [S3Provider.factory(configuration)]
        settings.diskCache = try DiskCache(directory: directory + "/cache")
        settings.memoryCacheBytes = 0
        let pipeline = ImagePipeline(configuration: settings)
        let output = OutputOptions(format: .webp)
        let pinned = ImageRequest(source: SourceReference("s3://uploads;etag=\(etag)/a.jpg"), chain: ProcessorChain(), output: output)
        let unpinned = ImageRequest(source: SourceReference("s3://uploads/a.jpg"), chain: ProcessorChain(), output: output)
        _ = try await pipeline.retrieve(pinned)
        _ = try await pipeline.retrieve(unpinned)
        let clock = ContinuousClock()
        func time(_ body: () async throws -> Void) async throws -> Double {
            let start = clock.now
            for _ in 0..<200 { try await body() }
            return Double((clock.now - start).components.attoseconds) / 1e15 + Double((clock.now - start).components.seconds) * 1000
        }
        let pinnedMs = try await time {
            let hit = try await pipeline.retrieve(pinned)
            #expect(hit.origin == .disk)
        }
        let headMs = try await time { _ = try await client.headObject(bucket: "uploads", key: "a.jpg") }
        let unpinnedMs = try await time {
            let hit = try await pipeline.retrieve(unpinned)
            #expect(hit.origin == .disk)
        }
        print(
            "s3-identity: 200 cache hits pinned \(Int(pinnedMs)) ms; 200 HEADs \(Int(headMs)) ms; 200 cache hits unpinned (GET of \(bytes.count) B each) \(Int(unpinnedMs)) ms"
        )
    }
}
