import DarkroomCache
import DarkroomCore
import DarkroomPipeline
import DarkroomQueue
import DarkroomRedis
import DarkroomSources
import DarkroomStandardProcessors
import DarkroomSystem
import DarkroomTestSupport
import DarkroomWorker
import Foundation
import Glibc
import Testing

@Suite("Fleet-wide leases: one computation per key")
struct WorkLeaseTests {
    /// A real redis-server and a lease store on it; `client` closes with the test.
    struct RedisLeases {
        let server: RedisTestServer
        let client: RedisClient
        let leases: RedisWorkLeases

        init() throws {
            server = try RedisTestServer()
            client = RedisClient(url: try RedisURL(server.url))
            leases = RedisWorkLeases(client: client, keyPrefix: "test")
        }

        func stop() {
            client.close()
            server.stop()
        }
    }

    @Test("Memory leases follow the same rules")
    func memoryLeaseSemantics() async throws {
        let leases = MemoryWorkLeases()
        let lease = try #require(try await leases.acquire("k", ttl: .seconds(10)))
        #expect(try await leases.acquire("k", ttl: .seconds(10)) == nil)
        #expect(try await !leases.renew(WorkLease(key: "k", token: "other"), ttl: .seconds(1)))
        try await leases.release(WorkLease(key: "k", token: "other"))
        #expect(try await leases.isHeld("k"))
        try await leases.release(lease)
        #expect(try await !leases.isHeld("k"))
        _ = try await leases.acquire("e", ttl: .milliseconds(40))
        #expect(await WorkerTestKit.eventually { try await !leases.isHeld("e") })
    }

    @Test("Two pipelines sharing a disk cache and Redis leases, given one request at once, compute it once")
    func twoPipelinesComputeOnce() async throws {
        let redis = try RedisLeases()
        defer { redis.stop() }
        let dir = try WorkerTestKit.makeDirectory("leases")
        defer { WorkerTestKit.remove(dir) }
        let jpeg = try WorkerTestKit.image(width: 160, height: 120)
        let server = try TestHTTPServer { _ in
            usleep(400_000)  // keep the first computation going while the second arrives
            return .ok(jpeg)
        }
        defer { server.stop() }
        // Two "processes": their own disk cache objects on one directory, their own Redis clients.
        let otherClient = RedisClient(url: try RedisURL(redis.server.url))
        defer { otherClient.close() }
        let first = WorkerTestKit.pipeline(
            allowing: [server.origin], disk: try DiskCache(directory: "\(dir)/cache"),
            leases: redis.leases)
        let second = WorkerTestKit.pipeline(
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
        #expect(try await !redis.leases.isHeld("result:anything"))
        let leftover = try await redis.client.command(["KEYS", "test:lease:*"]).array ?? []
        #expect(leftover.isEmpty)
    }

    @Test("Two pipelines making different results of one URL download it once: the second waits for the original")
    func sourceFetchedOnce() async throws {
        let dir = try WorkerTestKit.makeDirectory("leases")
        defer { WorkerTestKit.remove(dir) }
        let jpeg = try WorkerTestKit.image(width: 160, height: 120)
        let server = try TestHTTPServer { _ in
            usleep(400_000)
            return .ok(jpeg)
        }
        defer { server.stop() }
        let leases = MemoryWorkLeases()
        let first = WorkerTestKit.pipeline(allowing: [server.origin], disk: try DiskCache(directory: "\(dir)/cache"), leases: leases)
        let second = WorkerTestKit.pipeline(allowing: [server.origin], disk: try DiskCache(directory: "\(dir)/cache"), leases: leases)
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
        let dir = try WorkerTestKit.makeDirectory("leases")
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(), to: "\(dir)/a.jpg")
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
        let dir = try WorkerTestKit.makeDirectory("leases")
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(), to: "\(dir)/a.jpg")
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

/// Counts calls, holds nothing.
final class RecordingLeases: WorkLeases {
    private let count = Locked(0)
    var calls: Int { count.withLock { $0 } }
    func acquire(_ key: String, ttl: Duration) async throws -> WorkLease? {
        count.withLock { $0 += 1 }
        return WorkLease(key: key, token: "t")
    }
    func renew(_ lease: WorkLease, ttl: Duration) async throws -> Bool {
        count.withLock { $0 += 1 }
        return true
    }
    func release(_ lease: WorkLease) async throws { count.withLock { $0 += 1 } }
    func isHeld(_ key: String) async throws -> Bool {
        count.withLock { $0 += 1 }
        return false
    }
}

/// Memory leases where the first acquire of each `result:` key is taken by a ghost holder (a
/// worker that died at once): the caller is told the lease is held, and it expires after `ghostTTL`.
final class GhostHolderLeases: WorkLeases {
    private let inner = MemoryWorkLeases()
    private let ghostTTL: Duration
    private let ghosted = Locked<Set<String>>([])

    init(ghostTTL: Duration) { self.ghostTTL = ghostTTL }

    var ghosts: Int { ghosted.withLock { $0.count } }

    func acquire(_ key: String, ttl: Duration) async throws -> WorkLease? {
        if key.hasPrefix("result:"), ghosted.withLock({ $0.insert(key).inserted }) {
            _ = try await inner.acquire(key, ttl: ghostTTL)
            return nil
        }
        return try await inner.acquire(key, ttl: ttl)
    }

    func renew(_ lease: WorkLease, ttl: Duration) async throws -> Bool { try await inner.renew(lease, ttl: ttl) }
    func release(_ lease: WorkLease) async throws { try await inner.release(lease) }
    func isHeld(_ key: String) async throws -> Bool { try await inner.isHeld(key) }
}
