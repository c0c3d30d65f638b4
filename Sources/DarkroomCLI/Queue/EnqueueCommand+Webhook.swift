import DarkroomQueue
import DarkroomRedis
import DarkroomWebhooks

extension EnqueueCommand {
    /// For jobs that name a webhook endpoint (`--webhook NAME` or a line's `"webhook"`):
    /// `RedisWebhookSubscriptions.subscribeNamed` before they are enqueued, so no job can end
    /// before the notifier knows where to report it. An endpoint that does not exist is bad usage
    /// (exit 2) and nothing is enqueued.
    static func subscribeWebhooks(_ jobs: [Job], client: RedisClient, prefix: String) async throws {
        do {
            try await RedisWebhookSubscriptions(client: client, keyPrefix: prefix)
                .subscribeNamed(jobs, endpoints: RedisWebhookEndpointStore(client: client, keyPrefix: prefix))
        } catch let error as WebhookError where error.code == .unknown {
            throw UsageFailure(error.message)
        }
    }
}
