import DarkroomRedis
import DarkroomSystem
import DarkroomTestSupport
import Testing

/// The Redis lease store's rules, its expiry included: a lease that is not renewed expires by
/// Redis's own `PX` time, which no injected clock moves, so the suite runs in the serial pass of
/// `scripts/test`.
@Suite("Fleet-wide leases on Redis, expiry in real time", .realTime)
struct RedisWorkLeasesRealTimeTests {
    @Test("Redis leases: taken once, renewed and released only with their token, and expire when not renewed")
    func redisLeaseSemantics() async throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let client = RedisClient(url: try RedisURL(redis.url))
        defer { client.close() }
        let leases = RedisWorkLeases(client: client, keyPrefix: "test")

        let lease = try #require(try await leases.acquire("result:k", ttl: .seconds(10)))
        #expect(try await leases.acquire("result:k", ttl: .seconds(10)) == nil)
        #expect(try await leases.isHeld("result:k"))
        let impostor = WorkLease(key: "result:k", token: "not-the-token")
        #expect(try await !leases.renew(impostor, ttl: .seconds(10)))
        try await leases.release(impostor)
        #expect(try await leases.isHeld("result:k"))
        #expect(try await leases.renew(lease, ttl: .seconds(10)))
        try await leases.release(lease)
        #expect(try await !leases.isHeld("result:k"))

        // A holder that dies stops renewing: its lease expires and the next one takes it.
        let short = try #require(try await leases.acquire("source:s", ttl: .milliseconds(100)))
        #expect(try await Self.expires("source:s", in: leases))
        #expect(try await !leases.renew(short, ttl: .seconds(1)))
        #expect(try await leases.acquire("source:s", ttl: .seconds(1)) != nil)

        // Long keys are stored under their hash, and still work.
        let long = "result:" + String(repeating: "x", count: 5000)
        #expect(try await leases.acquire(long, ttl: .seconds(5)) != nil)
        #expect(try await leases.isHeld(long))
        let keys = try await client.command(["KEYS", "test:lease:*"]).array?.compactMap(\.string) ?? []
        #expect(keys.allSatisfy { $0.utf8.count < 300 })
    }

    /// Polls until `key` is no longer held (by Redis's `PX` expiry), for up to 30 s.
    static func expires(_ key: String, in leases: RedisWorkLeases) async throws -> Bool {
        for _ in 0..<1_500 {
            if try await !leases.isHeld(key) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
