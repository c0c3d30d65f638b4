import Crypto
import DarkroomRedis
import DarkroomSystem

/// `IdempotencyStore` in Redis: one string per key, `PREFIX:api:idempotency:SCOPE:SHA256(key)`.
///
/// A claim is `SET … NX` of `P` + the fingerprint, expiring after
/// `IdempotencyKeys.inFlightLifetime` (so a process that dies mid-request frees the key); the
/// answer replaces it as `D` + fingerprint + the 3-digit status + the body, kept for
/// `IdempotencyKeys.lifetime`. The key is hashed: a caller's key may be any printable text.
public struct RedisIdempotencyStore: IdempotencyStore {
    public let client: RedisClient
    public let keyPrefix: String

    public init(client: RedisClient, keyPrefix: String = "darkroom") {
        self.client = client
        self.keyPrefix = keyPrefix
    }

    func redisKey(scope: String, key: String) -> String {
        "\(keyPrefix):api:idempotency:\(scope):" + HexDigits.lowercase(SHA256.hash(data: Array(key.utf8)))
    }

    public func claim(scope: String, key: String, fingerprint: String) async throws -> IdempotencyClaim {
        let name = redisKey(scope: scope, key: key)
        let pending = "P" + fingerprint
        // Twice at most: a claim can expire between a refused SET and the GET.
        for _ in 0..<2 {
            let set = try await client.command(["SET", name, pending, "NX", "PX", "\(IdempotencyKeys.inFlightLifetime.wholeMilliseconds)"])
            if !set.isNull { return .claimed }
            guard let held = try await client.command(["GET", name]).bytes else { continue }
            return Self.claim(held: held, fingerprint: fingerprint)
        }
        return .inFlight
    }

    /// What a stored value says to a request with `fingerprint`.
    static func claim(held: [UInt8], fingerprint: String) -> IdempotencyClaim {
        let print = Array(fingerprint.utf8)
        guard held.count >= 1 + print.count, Array(held[1..<(1 + print.count)]) == print else { return .reused }
        guard held.first == UInt8(ascii: "D") else { return .inFlight }
        let rest = held[(1 + print.count)...]
        guard rest.count >= 3, let status = Int(String(decoding: rest.prefix(3), as: UTF8.self)) else { return .inFlight }
        return .replay(status: status, body: Array(rest.dropFirst(3)))
    }

    public func complete(scope: String, key: String, fingerprint: String, status: Int, body: [UInt8]) async throws {
        let value = Array(("D" + fingerprint + String(min(max(status, 100), 599))).utf8) + body
        let name = redisKey(scope: scope, key: key)
        _ = try await client.command(
            [Array("SET".utf8), Array(name.utf8), value, Array("PX".utf8), Array("\(IdempotencyKeys.lifetime.wholeMilliseconds)".utf8)])
    }

    public func release(scope: String, key: String) async throws {
        _ = try await client.command(["DEL", redisKey(scope: scope, key: key)])
    }
}
