import DarkroomQueue
import DarkroomRedis
import Testing

@testable import DarkroomAPIKeys

@Suite("RedisRateLimiter: one token bucket per key in Redis, on Redis's clock", .serialized, .realTime)
struct RedisRateLimiterRealTimeTests {
    let redis: RedisKeysFixture

    init() throws { redis = try RedisKeysFixture() }

    @Test("Given an idle key, its burst is allowed, then it is refused with a retry-after within a token's time")
    func burstThenLimited() async throws {
        let limiter = RedisRateLimiter(client: redis.client, keyPrefix: redis.prefix)
        let key = MemoryRateLimiterTests.key(perSecond: 1, burst: 5)
        for _ in 0..<5 { #expect(try await limiter.take(for: key).isAllowed) }
        guard case .limited(let wait) = try await limiter.take(for: key) else {
            Issue.record("the sixth request in a burst of 5 was allowed")
            return
        }
        // At most a token's time (1 s at 1/s), less whatever refilled while the burst was taken.
        #expect(wait > .zero && wait <= .seconds(1))
        // A second process's limiter shares the bucket.
        let other = RedisRateLimiter(client: try redis.otherClient(), keyPrefix: redis.prefix)
        #expect(try await other.take(for: key).isAllowed == false)
        try await Task.sleep(for: wait + .milliseconds(50))
        #expect(try await other.take(for: key).isAllowed)
    }

    @Test("The bucket lives under the prefix and expires once it would be full again")
    func bucketKey() async throws {
        let limiter = RedisRateLimiter(client: redis.client, keyPrefix: redis.prefix)
        let key = MemoryRateLimiterTests.key(perSecond: 10, burst: 10)
        _ = try await limiter.take(for: key)
        let name = "\(redis.prefix):apikeys:bucket:\(key.id)"
        let ttl = try await redis.client.command(["PTTL", name]).integer ?? -2
        #expect(ttl > 0 && ttl <= 1100)
    }

    @Test("Revoking a key deletes its bucket")
    func revokeDeletesBucket() async throws {
        let store = RedisAPIKeyStore(client: redis.client, keyPrefix: redis.prefix)
        let created = try await store.create(APIKeyStoreContract.request)
        let limiter = RedisRateLimiter(client: redis.client, keyPrefix: redis.prefix)
        _ = try await limiter.take(for: created.key)
        #expect(try await redis.client.command(["EXISTS", "\(redis.prefix):apikeys:bucket:\(created.key.id)"]).integer == 1)
        try await store.revoke(id: created.key.id)
        #expect(try await redis.client.command(["EXISTS", "\(redis.prefix):apikeys:bucket:\(created.key.id)"]).integer == 0)
    }
}
