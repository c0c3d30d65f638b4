import DarkroomQueue
import DarkroomTestSupport
import Testing

@testable import DarkroomAPIKeys

@Suite("MemoryRateLimiter: a token bucket per key on a manual clock")
struct MemoryRateLimiterTests {
    static func key(id: String = "dk_rate0001", perSecond: Double, burst: Int) -> APIKey {
        var key = APIKeyGrantsTests.key()
        key.id = id
        key.rateLimit = APIRateLimit(perSecond: perSecond, burst: burst)
        return key
    }

    @Test("Given an idle key, its burst is allowed at once, then the next waits for a token")
    func burstThenLimited() async throws {
        let clock = ManualInstantClock()
        let limiter = MemoryRateLimiter(now: clock.now)
        let key = Self.key(perSecond: 2, burst: 3)
        for remaining in [2, 1, 0] { #expect(try await limiter.take(for: key) == .allowed(remaining: remaining)) }
        #expect(try await limiter.take(for: key) == .limited(retryAfter: .milliseconds(500)))
        clock.advance(by: .milliseconds(250))
        #expect(try await limiter.take(for: key) == .limited(retryAfter: .milliseconds(250)))
        clock.advance(by: .milliseconds(250))
        #expect(try await limiter.take(for: key) == .allowed(remaining: 0))
        // A long idle spell refills to the burst, no further.
        clock.advance(by: .seconds(60))
        for remaining in [2, 1, 0] { #expect(try await limiter.take(for: key) == .allowed(remaining: remaining)) }
        #expect(try await limiter.take(for: key).isAllowed == false)
    }

    @Test("Keys have buckets of their own")
    func perKey() async throws {
        let limiter = MemoryRateLimiter(now: ManualInstantClock().now)
        let first = Self.key(id: "dk_rate0001", perSecond: 1, burst: 1)
        let second = Self.key(id: "dk_rate0002", perSecond: 1, burst: 1)
        #expect(try await limiter.take(for: first).isAllowed)
        #expect(try await limiter.take(for: first).isAllowed == false)
        #expect(try await limiter.take(for: second).isAllowed)
    }

    @Test("admit throws apikey.rate-limited with a Retry-After in whole seconds, rounded up")
    func admit() async throws {
        let limiter = MemoryRateLimiter(now: ManualInstantClock().now)
        let key = Self.key(perSecond: 0.5, burst: 1)
        try await limiter.admit(key)
        let error = await #expect(throws: APIKeyError.self) { try await limiter.admit(key) }
        #expect(error?.code == .rateLimited)
        #expect(error?.httpStatus == 429)
        #expect(error?.isTransient == true)
        #expect(error?.retryAfter == .seconds(2))
        #expect(error?.retryAfterSeconds == 2)
        #expect(APIKeyError(.rateLimited, "", retryAfter: .milliseconds(1)).retryAfterSeconds == 1)
        #expect(APIKeyError(.rateLimited, "", retryAfter: .milliseconds(1001)).retryAfterSeconds == 2)
    }
}
