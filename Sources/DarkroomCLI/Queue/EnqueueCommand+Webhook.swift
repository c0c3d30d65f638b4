import DarkroomQueue
import DarkroomRedis
import DarkroomWebhooks

extension EnqueueCommand {
    /// For jobs that name a webhook endpoint (`--webhook NAME` or a line's `"webhook"`): checks
    /// every endpoint named exists (bad usage, nothing enqueued, when one does not) and subscribes
    /// the jobs, and their batch for `batch.ended`, before they are enqueued, so no job can end
    /// before the notifier knows where to report it.
    static func subscribeWebhooks(_ jobs: [Job], client: RedisClient, prefix: String) async throws {
        let named = Dictionary(grouping: jobs.filter { $0.webhook != nil }, by: { $0.webhook ?? "" })
        guard !named.isEmpty else { return }
        let endpoints = RedisWebhookEndpointStore(client: client, keyPrefix: prefix)
        for name in named.keys.sorted() where try await endpoints.endpoint(named: name) == nil {
            throw UsageFailure(
                "webhook \(name): no webhook endpoint has that name (darkroom webhook list; add one with darkroom webhook add)")
        }
        let subscriptions = RedisWebhookSubscriptions(client: client, keyPrefix: prefix)
        for (name, subscribed) in named {
            try await subscriptions.subscribe(subscribed.map(\.id), to: name)
            for batch in Set(subscribed.map(\.batch)) { try await subscriptions.subscribe(batch: batch, to: name) }
        }
    }
}
