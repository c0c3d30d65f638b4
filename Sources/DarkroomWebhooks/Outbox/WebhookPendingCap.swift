/// The caps on pending deliveries (`WebhookDeliveryPolicy`): past one, the oldest pending
/// deliveries it holds fail ("dropped"), so a receiver that is down for long fills Redis no
/// further than its share.
public enum WebhookPendingCap: String, Sendable, Hashable, CaseIterable {
    /// Per API key: the work one key submitted (`WebhookDelivery.owner`).
    case key
    /// Per webhook endpoint.
    case endpoint
    /// All pending deliveries of the fleet.
    case total

    /// The owner recorded for work enqueued without an API key (the CLI's): one shared bucket
    /// under the per-key cap. API key ids start `dk_`, so it is no key's.
    public static let noOwner = "-"
}
