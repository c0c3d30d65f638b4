import DarkroomAPIKeys

/// What the job API checks a request against: the fleet's API keys, their rate limits, and who
/// owns each job and batch. All three live in Redis in a fleet (`RedisAPIKeyStore`,
/// `RedisRateLimiter`, `RedisOwnershipStore`), so every API process behind a load balancer
/// answers a key alike.
public struct APIAccess: Sendable {
    public let keys: any APIKeyStore
    public let limiter: any APIRateLimiter
    public let owners: any OwnershipStore

    public init(keys: any APIKeyStore, limiter: any APIRateLimiter, owners: any OwnershipStore) {
        self.keys = keys
        self.limiter = limiter
        self.owners = owners
    }

    /// Throws 404 (`notFound`) unless `key` may see the job: its own, or any with `admin`. Not
    /// 403: an id another key submitted stays indistinguishable from an unknown one.
    func requireAccess(_ key: APIKey, job id: String, unknown: APIError) async throws {
        if key.has(scope: .admin) { return }
        guard key.mayAccess(ownedBy: try await owners.owner(ofJob: id)) else { throw unknown }
    }

    /// The batch counterpart of `requireAccess(_:job:unknown:)`.
    func requireAccess(_ key: APIKey, batch name: String, unknown: APIError) async throws {
        if key.has(scope: .admin) { return }
        guard key.mayAccess(ownedBy: try await owners.owner(ofBatch: name)) else { throw unknown }
    }
}
