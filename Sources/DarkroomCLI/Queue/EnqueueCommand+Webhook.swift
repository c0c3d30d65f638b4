import DarkroomQueue
import DarkroomRedis
import DarkroomWebhooks

extension EnqueueCommand {
    /// For `--webhook NAME`: checks the endpoint exists (bad usage, nothing enqueued, when not)
    /// and returns the step that names it in each job and subscribes the jobs (and their batch,
    /// for `batch.ended`) to it before they are enqueued, so no job can end before the notifier knows where to report it.
    func webhookSubscription(client: RedisClient, prefix: String) async throws -> (([Job]) async throws -> [Job])? {
        guard let webhook else { return nil }
        guard try await RedisWebhookEndpointStore(client: client, keyPrefix: prefix).endpoint(named: webhook) != nil else {
            throw UsageFailure("--webhook \(webhook): no webhook endpoint has that name (darkroom webhook list; add one with darkroom webhook add)")
        }
        let subscriptions = RedisWebhookSubscriptions(client: client, keyPrefix: prefix)
        return { jobs in
            try await subscriptions.subscribe(jobs.map(\.id), to: webhook)
            for batch in Set(jobs.map(\.batch)) { try await subscriptions.subscribe(batch: batch, to: webhook) }
            return jobs.map { job in
                var named = job
                named.webhook = webhook
                return named
            }
        }
    }
}
