import ArgumentParser
import DarkroomCoordinator
import DarkroomHTTPAPI
import DarkroomQueue
import DarkroomRedis
import DarkroomWebhooks
import Logging

/// The webhook notifier's caps on pending deliveries (`--webhook-max-pending-per-key`,
/// `--webhook-max-pending`) of `darkroom coordinator`, and the notifier they make.
struct WebhookOptions: ParsableArguments {
    @Option(
        name: .customLong("webhook-max-pending-per-key"),
        help: ArgumentHelp(
            "The most pending webhook deliveries of one API key's work (work enqueued without a key shares one such cap); past it the key's oldest fail.",
            valueName: "N"))
    var maxPendingPerKey = WebhookDeliveryPolicy().maxPendingPerKey

    @Option(
        name: .customLong("webhook-max-pending"),
        help: ArgumentHelp("The most pending webhook deliveries in total; past it the oldest fail.", valueName: "N"))
    var maxPending = WebhookDeliveryPolicy().maxPending

    /// The outbox's policy with these caps; a cap outside 1…10,000,000 is refused.
    func policy() throws(UsageFailure) -> WebhookDeliveryPolicy {
        for (flag, value) in [("--webhook-max-pending-per-key", maxPendingPerKey), ("--webhook-max-pending", maxPending)]
        where !(1...10_000_000).contains(value) {
            throw UsageFailure("\(flag) must be 1…10000000 (got \(value))")
        }
        var policy = WebhookDeliveryPolicy()
        policy.maxPendingPerKey = maxPendingPerKey
        policy.maxPending = maxPending
        return policy
    }

    /// The notifier, its deliveries attributed to API keys by the job API's ownership records,
    /// and the deliveries its caps fail counted in `darkroom_webhook_deliveries_dropped_total`.
    static func notifier(
        queue: RedisStreamsQueue, client: RedisClient, keyPrefix: String, name: String, policy: WebhookDeliveryPolicy,
        metrics: CoordinatorMetrics, logger: Logger
    ) -> WebhookNotifier {
        let counters = Dictionary(
            uniqueKeysWithValues: WebhookPendingCap.allCases.map { cap in
                (
                    cap,
                    metrics.registry.makeCounter(
                        name: "darkroom_webhook_deliveries_dropped_total", labels: [("cap", cap.rawValue)],
                        help: "Pending webhook deliveries failed by a cap (key, endpoint or total) in this process")
                )
            })
        let outbox = RedisWebhookOutbox(client: client, keyPrefix: keyPrefix, policy: policy) { cap, count in
            counters[cap]?.increment(by: Int64(count))
        }
        return WebhookNotifier(
            queue: queue, client: client, keyPrefix: keyPrefix, outbox: outbox, configuration: .init(name: name),
            owners: RedisOwnershipStore(client: client, keyPrefix: keyPrefix), logger: logger)
    }
}
