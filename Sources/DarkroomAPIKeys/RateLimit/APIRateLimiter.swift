import DarkroomSystem

/// A per-key rate limit: a token bucket of the key's `APIRateLimit` (`burst` tokens, refilled at
/// `perSecond`), one token a request. `RedisRateLimiter` shares each bucket across every job API
/// process; `MemoryRateLimiter` keeps them in one process (tests, a server without Redis).
public protocol APIRateLimiter: Sendable {
    /// Takes one token from `key`'s bucket if it has one.
    func take(for key: APIKey) async throws -> RateLimitDecision
}

/// What a rate limiter says about one request.
public enum RateLimitDecision: Sendable, Hashable {
    /// Go ahead; `remaining` whole tokens are left.
    case allowed(remaining: Int)
    /// Refused: the next token comes after `retryAfter`.
    case limited(retryAfter: Duration)

    public var isAllowed: Bool {
        if case .allowed = self { return true }
        return false
    }
}

extension APIRateLimiter {
    /// Takes a token for `key`, or throws `apikey.rate-limited` with `retryAfter` set (the job
    /// API answers `429` with `Retry-After: APIKeyError.retryAfterSeconds`).
    public func admit(_ key: APIKey) async throws {
        guard case .limited(let wait) = try await take(for: key) else { return }
        let tenths = wait.wholeTenthsOfSeconds
        let seconds = "\(tenths / 10).\(tenths % 10)"
        throw APIKeyError(
            .rateLimited,
            "the API key \(key.id) is over its rate limit (\(key.rateLimit.perSecondText) requests a second, bursts of \(key.rateLimit.burst)); retry in \(seconds) s",
            retryAfter: wait)
    }
}
