import Crypto
import DarkroomSystem

/// Fleet-wide `WorkLeases` in Redis: `{prefix}:lease:<key>` holds the holder's random token,
/// taken with `SET NX PX` and renewed or released only by a Lua script that compares the token
/// (so a holder whose lease expired cannot extend or delete a newer holder's lease). Keys longer
/// than 200 bytes (result keys of long URLs and chains) are stored under their SHA-256.
public final class RedisWorkLeases: WorkLeases {
    public let client: RedisClient
    public let keyPrefix: String

    public init(client: RedisClient, keyPrefix: String = "darkroom") {
        self.client = client
        self.keyPrefix = keyPrefix
    }

    private static let renewScript = RedisScript(
        """
        if redis.call('GET', KEYS[1]) == ARGV[1] then
          return redis.call('PEXPIRE', KEYS[1], ARGV[2])
        end
        return 0
        """)

    private static let releaseScript = RedisScript(
        """
        if redis.call('GET', KEYS[1]) == ARGV[1] then
          return redis.call('DEL', KEYS[1])
        end
        return 0
        """)

    public func acquire(_ key: String, ttl: Duration) async throws -> WorkLease? {
        let token = WorkLease.makeToken()
        let reply = try await client.command(["SET", redisKey(key), token, "NX", "PX", Self.milliseconds(ttl)])
        // `+OK` when set, a nil bulk when the key exists.
        return reply.isNull ? nil : WorkLease(key: key, token: token)
    }

    public func renew(_ lease: WorkLease, ttl: Duration) async throws -> Bool {
        let reply = try await client.evalsha(
            Self.renewScript, keys: [redisKey(lease.key)],
            arguments: [lease.token, Self.milliseconds(ttl)])
        return reply.integer == 1
    }

    public func release(_ lease: WorkLease) async throws {
        try await client.evalsha(Self.releaseScript, keys: [redisKey(lease.key)], arguments: [lease.token])
    }

    public func isHeld(_ key: String) async throws -> Bool {
        try await client.command(["EXISTS", redisKey(key)]).integer == 1
    }

    /// `{prefix}:lease:<key>`, or `{prefix}:lease:sha256:<hex>` for a long key.
    func redisKey(_ key: String) -> String {
        let name = key.utf8.count <= 200 ? key : "sha256:" + HexDigits.lowercase(SHA256.hash(data: Array(key.utf8)))
        return "\(keyPrefix):lease:\(name)"
    }

    private static func milliseconds(_ duration: Duration) -> String {
        String(max(duration.wholeMilliseconds, 1))
    }
}
