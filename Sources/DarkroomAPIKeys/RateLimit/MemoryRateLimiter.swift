import DarkroomSystem

/// Token buckets in this process's memory, one per key id: the same arithmetic as
/// `RedisRateLimiter`'s script, on this process's monotonic clock.
public final class MemoryRateLimiter: APIRateLimiter {
    private struct Bucket {
        var tokens: Double
        var at: ContinuousClock.Instant
    }

    private let buckets = Locked<[String: Bucket]>([:])
    private let now: @Sendable () -> ContinuousClock.Instant

    public init(now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.now = now
    }

    public func take(for key: APIKey) async throws -> RateLimitDecision {
        let time = now()
        let rate = key.rateLimit.perSecond
        let burst = Double(key.rateLimit.burst)
        return buckets.withLock { buckets in
            var bucket = buckets[key.id] ?? Bucket(tokens: burst, at: time)
            if time > bucket.at {
                bucket.tokens = min(burst, bucket.tokens + (time - bucket.at).inSeconds * rate)
                bucket.at = time
            }
            bucket.tokens = min(bucket.tokens, burst)
            defer { buckets[key.id] = bucket }
            guard bucket.tokens >= 1 else {
                let milliseconds = ((1 - bucket.tokens) / rate * 1000).rounded(.up)
                return .limited(retryAfter: .milliseconds(Int64(milliseconds)))
            }
            bucket.tokens -= 1
            return .allowed(remaining: Int(bucket.tokens))
        }
    }
}
