import DarkroomQueue
import DarkroomRedis

/// Which endpoint each job notifies, written by whoever enqueues (the CLI, the job API) *before*
/// the jobs are enqueued, so no terminal event can come before its subscription. Kept 7 days (as
/// long as the queue remembers ids), so a dead job retried later is notified again.
///
/// The notifier reads these instead of a field of the terminal events: the workers publish those
/// events, and a worker that predates webhooks would drop a field it does not know; a lookup
/// here needs no worker to change and no capability gate, so jobs that notify run on every worker.
public struct RedisWebhookSubscriptions: Sendable {
    public let client: RedisClient
    let keys: RedisWebhookKeys
    /// How long a job's subscription is kept.
    public static let retention = 7 * 24 * 3600

    public init(client: RedisClient, keyPrefix: String = "darkroom") {
        self.client = client
        keys = RedisWebhookKeys(prefix: keyPrefix)
    }

    /// Subscribes `jobs` to `endpoint`.
    public func subscribe(_ jobs: [JobID], to endpoint: String) async throws {
        guard !jobs.isEmpty else { return }
        for chunk in stride(from: 0, to: jobs.count, by: 1000) {
            let commands = jobs[chunk..<min(chunk + 1000, jobs.count)].map {
                ["SET", keys.subscription($0.rawValue), endpoint, "EX", "\(Self.retention)"]
            }
            for reply in try await client.pipeline(commands) { _ = try reply.throwingOnError() }
        }
    }

    /// What whoever enqueues calls just before enqueueing `jobs` (the CLI, the job API): checks
    /// that every endpoint a job names (`Job.webhook`) exists in `endpoints` — `unknown` naming
    /// the first that does not, and nothing is subscribed — then subscribes each job, and its
    /// batch for `batch.ended`, to its endpoint. Jobs that name none are left alone.
    public func subscribeNamed(_ jobs: [Job], endpoints: any WebhookEndpointStore) async throws {
        let named = Dictionary(grouping: jobs.filter { $0.webhook != nil }, by: { $0.webhook ?? "" })
        for name in named.keys.sorted() where try await endpoints.endpoint(named: name) == nil {
            throw WebhookError(.unknown, "webhook \(name): no webhook endpoint has that name (darkroom webhook list; add one with darkroom webhook add)")
        }
        for (name, subscribed) in named {
            try await subscribe(subscribed.map(\.id), to: name)
            for batch in Set(subscribed.map(\.batch)) { try await subscribe(batch: batch, to: name) }
        }
    }

    /// Subscribes the end of `batch` (each time it ends: `batch.ended` with a sequence number).
    public func subscribe(batch: String, to endpoint: String) async throws {
        _ = try await client.command(["SET", keys.batchSubscription(batch), endpoint, "EX", "\(Self.retention)"]).throwingOnError()
    }

    /// The endpoint a batch's end notifies, or nil.
    public func endpoint(forBatch batch: String) async throws -> String? {
        try await client.command(["GET", keys.batchSubscription(batch)]).throwingOnError().string
    }

    /// The endpoint each job notifies (nil for none), in the order given.
    public func endpoints(for jobs: [JobID]) async throws -> [String?] {
        guard !jobs.isEmpty else { return [] }
        let reply = try await client.command(["MGET"] + jobs.map { keys.subscription($0.rawValue) }).throwingOnError()
        return reply.array?.map(\.string) ?? Array(repeating: nil, count: jobs.count)
    }
}
