import DarkroomRedis

/// Token buckets in Redis (`{p}:apikeys:bucket:<id>`), one per key, shared by every job API
/// process: one script refills the bucket by the time elapsed on Redis's own clock (`TIME`, so
/// the hosts' clocks do not matter), takes a token if there is one, and says how long until the
/// next one when there is not. A bucket expires once it would be full again, so idle keys cost
/// nothing; revoking a key deletes its bucket.
public final class RedisRateLimiter: APIRateLimiter {
    public let client: RedisClient
    let keys: RedisAPIKeyKeys

    public init(client: RedisClient, keyPrefix: String = "darkroom") {
        self.client = client
        keys = RedisAPIKeyKeys(prefix: keyPrefix)
    }

    /// ARGV: rate (tokens/s), burst. Returns `{allowed (1|0), whole tokens left, ms until the
    /// next token (0 when allowed)}`. Times are microseconds of `TIME`, exact in Lua's doubles.
    /// (`TIME` before a write is allowed since Redis 5, which replicates a script's effects.)
    static let takeScript = RedisScript(
        """
        local rate = tonumber(ARGV[1])
        local burst = tonumber(ARGV[2])
        local clock = redis.call('TIME')
        local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
        local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
        local tokens = tonumber(state[1])
        local at = tonumber(state[2])
        if tokens == nil or at == nil then
          tokens = burst
          at = now
        end
        if now > at then
          tokens = tokens + (now - at) / 1000000 * rate
          at = now
        end
        if tokens > burst then tokens = burst end
        local allowed = 0
        local wait = 0
        if tokens >= 1 then
          tokens = tokens - 1
          allowed = 1
        else
          wait = math.ceil((1 - tokens) / rate * 1000)
        end
        redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens), 'at', string.format('%d', at))
        redis.call('PEXPIRE', KEYS[1], string.format('%d', math.ceil((burst - tokens) / rate * 1000) + 1000))
        return {allowed, math.floor(tokens), wait}
        """)

    public func take(for key: APIKey) async throws -> RateLimitDecision {
        let reply = try await client.evalsha(
            Self.takeScript, keys: [keys.bucket(key.id)],
            arguments: [String(key.rateLimit.perSecond), String(key.rateLimit.burst)])
        guard let fields = reply.array?.compactMap(\.integer), fields.count == 3 else {
            throw RedisError.protocolError("the rate limit script answered \(reply)")
        }
        return fields[0] == 1 ? .allowed(remaining: Int(fields[1])) : .limited(retryAfter: .milliseconds(fields[2]))
    }
}
