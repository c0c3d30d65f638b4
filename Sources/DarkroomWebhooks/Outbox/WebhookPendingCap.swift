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

/// Who submitted the work a delivery notifies of, so it counts against that API key's cap: the
/// job API's ownership records (`RedisOwnershipStore` conforms). Nil answers put the delivery in
/// the shared bucket of work without a key.
public protocol WebhookOwnerLookup: Sendable {
    /// The key id that submitted each job of `ids`, in their order (nil where none).
    func owners(ofJobs ids: [String]) async throws -> [String?]

    /// The key id that first submitted into batch `name`, or nil.
    func owner(ofBatch name: String) async throws -> String?
}
