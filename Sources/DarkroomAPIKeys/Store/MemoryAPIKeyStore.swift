import DarkroomQueue
import DarkroomSystem

/// API keys in this process's memory: for tests, and for a job API run without Redis. It keeps
/// what `RedisAPIKeyStore` keeps (records and token digests, never tokens) and revocation takes
/// effect at once.
public final class MemoryAPIKeyStore: APIKeyStore {
    struct Stored: Sendable {
        var key: APIKey
        var digest: String
    }

    private let keys = Locked<[String: Stored]>([:])
    private let order = Locked<[String]>([])
    private let now: @Sendable () -> Timestamp

    /// - Parameter now: the clock for `createdAt` and `revokedAt`.
    public init(now: @escaping @Sendable () -> Timestamp = Timestamp.now) {
        self.now = now
    }

    public func create(_ request: APIKeyRequest) async throws -> CreatedAPIKey {
        let checked = try request.validated()
        while true {
            let token = APIKeyToken.generate()
            let key = checked.key(for: token, createdAt: now())
            let inserted = keys.withLock { keys in
                guard keys[token.id] == nil else { return false }
                keys[token.id] = Stored(key: key, digest: token.digest)
                return true
            }
            // An id already taken (1 in 62^8 per key) draws a new token.
            guard inserted else { continue }
            order.withLock { $0.append(token.id) }
            return CreatedAPIKey(key: key, token: token)
        }
    }

    public func authenticate(_ token: String) async throws -> APIKey? {
        guard let token = APIKeyToken(token), let stored = keys.withLock({ $0[token.id] }) else { return nil }
        guard token.matches(digest: stored.digest), stored.key.isLive else { return nil }
        return stored.key
    }

    public func list() async throws -> [APIKey] {
        let ids = order.withLock { $0 }
        return keys.withLock { keys in ids.compactMap { keys[$0]?.key } }
    }

    public func key(id: String) async throws -> APIKey? {
        keys.withLock { $0[id]?.key }
    }

    @discardableResult
    public func revoke(id: String) async throws -> APIKey? {
        let time = now()
        return keys.withLock { keys in
            guard var stored = keys[id] else { return nil }
            if stored.key.revokedAt == nil { stored.key.revokedAt = time }
            keys[id] = stored
            return stored.key
        }
    }

    /// The digest kept for `id` (tests check it is the token's digest, not the token).
    func storedDigest(id: String) -> String? {
        keys.withLock { $0[id]?.digest }
    }
}
