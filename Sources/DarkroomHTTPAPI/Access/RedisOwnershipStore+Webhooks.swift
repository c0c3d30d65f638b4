import DarkroomWebhooks

/// The ownership records say which API key's per-key webhook cap a delivery counts against
/// (`WebhookNotifier` reads them in the coordinator).
extension RedisOwnershipStore: WebhookOwnerLookup {}
