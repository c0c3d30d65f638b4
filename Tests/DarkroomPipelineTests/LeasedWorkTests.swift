import DarkroomCache
import DarkroomCore
import DarkroomPipeline
import DarkroomRedis
import DarkroomSources
import DarkroomStandardProcessors
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Glibc
import Testing

/// The pipeline's fleet-wide leases (`LeasedWork`): pipelines that share a disk cache compute each
/// result, and download each source, once.
@Suite("Fleet-wide leases: one computation per key")
struct LeasedWorkTests {
    /// A pipeline whose policy allows `origins`, over `disk` and `leases`.
    static func pipeline(allowing origins: [String], disk: DiskCache, leases: any WorkLeases) -> ImagePipeline {
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy.allowedSourcePrefixes = origins.map { $0 + "/" }
        configuration.diskCache = disk
        configuration.leases = leases
        configuration.maxConcurrentProcessing = 2
        return ImagePipeline(configuration: configuration)
    }

    @Test("Two pipelines sharing a disk cache and Redis leases, given one request at once, compute it once")
    func twoPipelinesComputeOnce() async throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let client = RedisClient(url: try RedisURL(redis.url))
        defer { client.close() }
        let leases = RedisWorkLeases(client: client, keyPrefix: "test")
        let dir = try TestImages.makeDirectory("leases")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let jpeg = try TestImages.gradient(.jpeg, width: 160, height: 120, tint: 90)
        let server = try TestHTTPServer { _ in
            usleep(400_000)  // keep the first computation going while the second arrives
            return .ok(jpeg)
        }
        defer { server.stop() }
        // Two "processes": their own disk cache objects on one directory, their own Redis clients.
        let otherClient = RedisClient(url: try RedisURL(redis.url))
        defer { otherClient.close() }
        let first = Self.pipeline(allowing: [server.origin], disk: try DiskCache(directory: "\(dir)/cache"), leases: leases)
        let second = Self.pipeline(
            allowing: [server.origin], disk: try DiskCache(directory: "\(dir)/cache"),
            leases: RedisWorkLeases(client: otherClient, keyPrefix: "test"))
        let request = ImageRequest(
            source: SourceReference(server.url("/shared.jpg")),
            chain: try StandardProcessors.registry.chain(from: "downsample(40x40)"))

        async let a = first.retrieve(request)
        async let b = second.retrieve(request)
        let results = try await [a, b]

        #expect(results.map(\.origin.rawValue).sorted() == ["disk", "miss"])
        #expect(results[0].bytes == results[1].bytes)
        #expect(server.requestCount("/shared.jpg") == 1)
        #expect(try await !leases.isHeld("result:anything"))
        let leftover = try await client.command(["KEYS", "test:lease:*"]).array ?? []
        #expect(leftover.isEmpty)
    }

    @Test("Two pipelines making different results of one URL download it once: the second waits for the original")
    func sourceFetchedOnce() async throws {
        let dir = try TestImages.makeDirectory("leases")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let jpeg = try TestImages.gradient(.jpeg, width: 160, height: 120, tint: 90)
        let server = try TestHTTPServer { _ in
            usleep(400_000)
            return .ok(jpeg)
        }
        defer { server.stop() }
        let leases = MemoryWorkLeases()
        let first = Self.pipeline(allowing: [server.origin], disk: try DiskCache(directory: "\(dir)/cache"), leases: leases)
        let second = Self.pipeline(allowing: [server.origin], disk: try DiskCache(directory: "\(dir)/cache"), leases: leases)
        let source = SourceReference(server.url("/one.jpg"))
        async let a = first.retrieve(ImageRequest(source: source, chain: try StandardProcessors.registry.chain(from: "downsample(40x40)")))
        async let b = second.retrieve(ImageRequest(source: source, chain: try StandardProcessors.registry.chain(from: "blackWhite")))
        let results = try await [a, b]

        #expect(results.allSatisfy { $0.origin == .miss })
        #expect(results.compactMap(\.sourceOrigin?.rawValue).sorted() == ["disk", "network"])
        #expect(server.requestCount("/one.jpg") == 1)
    }

    @Test("A lease left by a holder that died expires, and the waiter then computes the result itself")
    func deadHolderLeaseExpires() async throws {
        let dir = try TestImages.makeDirectory("leases")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let source = "\(dir)/a.jpg"
        try Data(try TestImages.gradient(.jpeg, width: 120, height: 80, tint: 90)).write(to: URL(fileURLWithPath: source))
        // The first taker of the result's lease is a worker that then died: it never renews it
        // and never stores a result.
        let leases = GhostHolderLeases(ghostTTL: .milliseconds(300))
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy = .interactive
        configuration.diskCache = try DiskCache(directory: "\(dir)/cache")
        configuration.leases = leases
        configuration.leaseTiming = LeaseTiming(ttl: .seconds(5), firstPoll: .milliseconds(10), longestPoll: .milliseconds(50))
        let pipeline = ImagePipeline(configuration: configuration)
        let request = ImageRequest(source: SourceReference(source), chain: try StandardProcessors.registry.chain(from: "downsample(40x40)"))

        let result = try await pipeline.retrieve(request)
        #expect(result.origin == .miss && result.size.width == 40)
        #expect(leases.ghosts == 1)
    }

    @Test("Without a disk cache leases are not used: nothing shared to wait for")
    func noDiskNoLeases() async throws {
        let dir = try TestImages.makeDirectory("leases")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let source = "\(dir)/a.jpg"
        try Data(try TestImages.gradient(.jpeg, width: 120, height: 80, tint: 90)).write(to: URL(fileURLWithPath: source))
        let leases = RecordingLeases()
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy = .interactive
        configuration.leases = leases
        let result = try await ImagePipeline(configuration: configuration)
            .retrieve(ImageRequest(source: SourceReference(source), chain: try StandardProcessors.registry.chain(from: "downsample(40x40)")))
        #expect(result.origin == .miss)
        #expect(leases.calls == 0)
    }
}
