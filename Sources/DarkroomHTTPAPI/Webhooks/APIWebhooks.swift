import DarkroomWebhooks

/// Where the job API manages webhook endpoints and their deliveries: the registry of endpoints
/// and the outbox, the same ones `darkroom webhook` and the coordinator's notifier use
/// (`RedisWebhookEndpointStore` and `RedisWebhookOutbox` on the fleet's Redis), so an endpoint
/// registered over HTTP is one the CLI lists and the other way round.
public struct APIWebhooks: Sendable {
    public let endpoints: any WebhookEndpointStore
    public let outbox: RedisWebhookOutbox

    public init(endpoints: any WebhookEndpointStore, outbox: RedisWebhookOutbox) {
        self.endpoints = endpoints
        self.outbox = outbox
    }
}

/// A `WebhookError` from managing endpoints (`/v1/webhooks…`), which answers with the code's own
/// status (`webhook.unknown` 404, `webhook.conflict` 409, `webhook.invalid` 422). A bare
/// `WebhookError` comes from a submit naming an unregistered endpoint, a bad job: 422.
struct WebhookManagementError: Error {
    let error: WebhookError
}
