import DarkroomAPIKeys
import DarkroomQueue

/// What the job API checks a request against: the fleet's API keys, their rate limits, and who
/// owns each job and batch. All three live in Redis in a fleet (`RedisAPIKeyStore`,
/// `RedisRateLimiter`, `RedisOwnershipStore`), so every API process behind a load balancer
/// answers a key alike.
public struct APIAccess: Sendable {
    public let keys: any APIKeyStore
    public let limiter: any APIRateLimiter
    public let owners: any OwnershipStore
    /// Subscribes jobs that name a webhook endpoint to it before they are enqueued, so none can
    /// end before the coordinator's notifier knows where to report it (`darkroom api` passes
    /// DarkroomWebhooks' `RedisWebhookSubscriptions.subscribeNamed`). Nil: a job naming a webhook
    /// is refused, never enqueued to end unannounced.
    public let subscribeWebhooks: (@Sendable ([Job]) async throws -> Void)?

    public init(
        keys: any APIKeyStore, limiter: any APIRateLimiter, owners: any OwnershipStore,
        subscribeWebhooks: (@Sendable ([Job]) async throws -> Void)? = nil
    ) {
        self.keys = keys
        self.limiter = limiter
        self.owners = owners
        self.subscribeWebhooks = subscribeWebhooks
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
