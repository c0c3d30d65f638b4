import DarkroomQueue
import DarkroomRedis
import Foundation

/// The fleet's API keys in Redis (keys in `RedisAPIKeyKeys`), shared by every job API process
/// and `darkroom api-key`.
///
/// Revocation reaches every process within `revocationDelay`: each process keeps the keys it
/// authenticated in a cache for `cacheTTL` (2 s by default, never more than 5 s), so most
/// requests cost no round trip, and a revoked key is asked of Redis again, and refused, once
/// its entry expires. The process that revokes drops its own entry at once.
public final class RedisAPIKeyStore: APIKeyStore {
    public let client: RedisClient
    public let keyPrefix: String
    let keys: RedisAPIKeyKeys
    private let cache: AuthenticatedKeyCache
    private let now: @Sendable () -> Timestamp

    /// How late a revocation may reach this process: the cache's time to live (≤ 5 s).
    public var revocationDelay: Duration { cache.ttl }

    /// - Parameters:
    ///   - keyPrefix: the fleet's prefix (`--redis-prefix`), shared with its queue.
    ///   - cacheTTL: how long an authenticated key is trusted without asking Redis (clamped to 0…5 s;
    ///     zero asks Redis on every request).
    ///   - now: the clock for `createdAt` and `revokedAt`; `monotonicNow` the cache's.
    public init(
        client: RedisClient, keyPrefix: String = "darkroom", cacheTTL: Duration = .seconds(2),
        now: @escaping @Sendable () -> Timestamp = Timestamp.now,
        monotonicNow: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.client = client
        self.keyPrefix = keyPrefix
        keys = RedisAPIKeyKeys(prefix: keyPrefix)
        cache = AuthenticatedKeyCache(ttl: cacheTTL, now: monotonicNow)
        self.now = now
    }

    /// Stores a new key unless its id is taken: 1 when stored, 0 when the id exists.
    private static let createScript = RedisScript(
        """
        if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
        redis.call('HSET', KEYS[1], 'record', ARGV[2], 'digest', ARGV[3])
        redis.call('RPUSH', KEYS[2], ARGV[1])
        return 1
        """)

    /// Marks a key revoked (keeping the first time) and drops its bucket: `{record, revokedAt}`,
    /// or nil for an unknown key.
    private static let revokeScript = RedisScript(
        """
        if redis.call('EXISTS', KEYS[1]) == 0 then return false end
        local at = redis.call('HGET', KEYS[1], 'revokedAt')
        if not at then
          at = ARGV[1]
          redis.call('HSET', KEYS[1], 'revokedAt', at)
        end
        redis.call('DEL', KEYS[2])
        return {redis.call('HGET', KEYS[1], 'record'), at}
        """)

    public func create(_ request: APIKeyRequest) async throws -> CreatedAPIKey {
        let checked = try request.validated()
        while true {
            let token = APIKeyToken.generate()
            let key = checked.key(for: token, createdAt: now())
            let record = String(decoding: try RecordJSON.encoder().encode(key), as: UTF8.self)
            let reply = try await client.evalsha(
                Self.createScript, keys: [keys.key(key.id), keys.index],
                arguments: [key.id, record, token.digest])
            // An id already taken (1 in 62^8 per key) draws a new token.
            if reply.integer == 1 { return CreatedAPIKey(key: key, token: token) }
        }
    }

    public func authenticate(_ text: String) async throws -> APIKey? {
        guard let token = APIKeyToken(text) else { return nil }
        let digest = token.digest
        if let cached = cache.key(digest: digest) { return cached }
        let fields = try await client.command(["HMGET", keys.key(token.id), "record", "digest", "revokedAt"]).array ?? []
        guard fields.count == 3, let stored = fields[1].string, token.matches(digest: stored), fields[2].isNull,
            let key = try Self.decode(record: fields[0], revokedAt: .null, id: token.id)
        else { return nil }
        cache.insert(key, digest: digest)
        return key
    }

    public func list() async throws -> [APIKey] {
        let ids = (try await client.command(["LRANGE", keys.index, "0", "-1"]).array ?? []).compactMap(\.string)
        guard !ids.isEmpty else { return [] }
        let replies = try await client.pipeline(ids.map { ["HMGET", keys.key($0), "record", "revokedAt"] })
        var listed: [APIKey] = []
        for (id, reply) in zip(ids, replies) {
            guard let fields = try reply.throwingOnError().array, fields.count == 2,
                let key = try Self.decode(record: fields[0], revokedAt: fields[1], id: id)
            else { continue }
            listed.append(key)
        }
        return listed
    }

    public func key(id: String) async throws -> APIKey? {
        guard APIKeyToken.isKeyID(id) else { return nil }
        let fields = try await client.command(["HMGET", keys.key(id), "record", "revokedAt"]).array ?? []
        guard fields.count == 2 else { return nil }
        return try Self.decode(record: fields[0], revokedAt: fields[1], id: id)
    }

    @discardableResult
    public func revoke(id: String) async throws -> APIKey? {
        guard APIKeyToken.isKeyID(id) else { return nil }
        let reply = try await client.evalsha(
            Self.revokeScript, keys: [keys.key(id), keys.bucket(id)], arguments: [String(now().millisecondsSince1970)])
        cache.remove(id: id)
        guard let fields = reply.array, fields.count == 2 else { return nil }
        return try Self.decode(record: fields[0], revokedAt: fields[1], id: id)
    }

    /// The key of a stored record, with `revokedAt` from its own field; nil when there is no
    /// record. A record that is not an API key's JSON is a protocol error, not a missing key.
    static func decode(record: RedisReply, revokedAt: RedisReply, id: String) throws(RedisError) -> APIKey? {
        guard let bytes = record.bytes else { return nil }
        guard var key = try? RecordJSON.decoder().decode(APIKey.self, from: Data(bytes)), key.id == id else {
            throw RedisError.protocolError("the API key record of \(id) cannot be read")
        }
        key.revokedAt = revokedAt.integer.map { Timestamp(millisecondsSince1970: $0) }
        return key
    }
}
