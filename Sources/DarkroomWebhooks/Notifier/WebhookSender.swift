import DarkroomQueue
import DarkroomSources
import DarkroomSystem
import Foundation

/// Sends one claimed delivery: looks up its endpoint and live secrets, POSTs the signed body
/// under the fetching policy's protections, and records the outcome in the outbox.
struct WebhookSender: Sendable {
    let endpoints: any WebhookEndpointStore
    let outbox: RedisWebhookOutbox
    let backoff: Backoff
    /// Connect and total timeouts, the response-size cap.
    let connectTimeout: Double
    let totalTimeout: Double
    let maxResponseBytes: Int

    func send(_ delivery: WebhookDelivery) async throws {
        guard let endpoint = try await endpoints.endpoint(named: delivery.endpoint) else {
            try await outbox.markFailed(delivery.id, error: "the endpoint \(delivery.endpoint) was removed")
            return
        }
        let secrets = try await endpoints.secrets(for: endpoint.name)
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
        let outcome = await HTTPPost.send(endpoint.url, body: body, headers: headers, policy: policy)
        if outcome.accepted {
            try await outbox.markDelivered(delivery.id)
        } else {
            let next = Timestamp.now().adding(backoff.delay(forAttempt: delivery.attempt))
            try await outbox.markAttemptFailed(delivery, error: outcome.problem ?? "HTTP \(outcome.status)", next: next)
        }
    }
}
