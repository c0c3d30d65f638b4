import DarkroomQueue
import DarkroomSources
import DarkroomSystem
import Foundation

/// Sends one claimed delivery: looks up its endpoint and live secrets (`WebhookEndpointCache`),
/// POSTs the signed body under the fetching policy's protections on a kept connection to the
/// endpoint when one is open (`HTTPPostConnections`), and records the outcome in the outbox.
struct WebhookSender: Sendable {
    let endpoints: WebhookEndpointCache
    let connections: HTTPPostConnections
    let outbox: RedisWebhookOutbox
    let backoff: Backoff
    /// Connect and total timeouts, the response-size cap.
    let connectTimeout: Double
    let totalTimeout: Double
    let maxResponseBytes: Int

    /// Returns the deliveries claimed with the outcome's record (up to `claimNext`, when the
    /// receiver accepted: the finish and the next claim are one script call).
    func send(_ delivery: WebhookDelivery, claimNext: Int = 0) async throws -> [WebhookDelivery] {
        let (found, secrets) = try await endpoints.lookup(delivery.endpoint)
        guard let endpoint = found else {
            try await outbox.markFailed(delivery.id, error: "the endpoint \(delivery.endpoint) was removed")
            return []
        }
        let body = Array((delivery.body ?? "{}").utf8)
        let timestamp = Int(Date().timeIntervalSince1970)
        let headers = [
            "Content-Type: application/json",
            "\(WebhookSignature.headerName): \(WebhookSignature.header(body: body, timestamp: timestamp, secrets: secrets))",
            "Darkroom-Delivery: \(delivery.id)",
            "Darkroom-Event: \(delivery.event)",
        ]
        var policy = SourcePolicy()
        policy.allowPrivateNetworks = endpoint.allowPrivateNetwork
        policy.connectTimeout = connectTimeout
        policy.totalTimeout = totalTimeout
        policy.maxBytes = maxResponseBytes
        policy.maxRedirects = 0
        policy.userAgent = "Darkroom-Webhooks/1"
        let outcome = await HTTPPost.send(endpoint.url, body: body, headers: headers, policy: policy, connections: connections)
        if outcome.accepted {
            return try await outbox.markDelivered(delivery.id, claimingUpTo: claimNext)
        }
        let next = Timestamp.now().adding(backoff.delay(forAttempt: delivery.attempt))
        try await outbox.markAttemptFailed(delivery, error: outcome.problem ?? "HTTP \(outcome.status)", next: next)
        return []
    }
}
