/// The registry of webhook endpoints and their secrets, shared by `darkroom webhook`, the job API
/// and the notifier. `RedisWebhookEndpointStore` is the fleet's.
///
/// Secrets leave the store only through `create` and `rotate` (shown once to whoever asked) and
/// `secrets(for:)` (for the sender, which signs with them and keeps them nowhere).
public protocol WebhookEndpointStore: Sendable {
    /// Registers an endpoint with one new secret; `conflict` when the name is taken, `invalid`
    /// when the name or URL breaks the rules.
    func create(name: String, url: String, allowPrivateNetwork: Bool) async throws -> WebhookEndpointSecret
    /// Every endpoint, by name.
    func list() async throws -> [WebhookEndpoint]
    /// The endpoint named `name`, or nil.
    func endpoint(named name: String) async throws -> WebhookEndpoint?
    /// Adds a second live secret (both sign until `retireOldSecret`); `conflict` when two are live.
    func rotate(name: String) async throws -> WebhookEndpointSecret
    /// Drops the older of two live secrets; `conflict` when only one is live.
    func retireOldSecret(name: String) async throws -> WebhookEndpoint
    /// Removes the endpoint and its secrets; false when there was none. Pending deliveries to it
    /// fail with `endpoint removed` when their turn comes.
    func remove(name: String) async throws -> Bool
    /// The live secrets, oldest first (empty for an unknown endpoint).
    func secrets(for name: String) async throws -> [String]
}
