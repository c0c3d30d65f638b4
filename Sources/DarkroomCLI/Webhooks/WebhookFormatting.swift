import DarkroomQueue
import DarkroomWebhooks

/// How `webhook` commands print endpoints and deliveries.
enum WebhookFormatting {
    /// The one place a secret is printed: just after `add` or `rotate` made it.
    static func printSecret(_ created: WebhookEndpointSecret, json: Bool, verb: String) {
        if json {
            let endpoint = (try? JSONText.line(created.endpoint)) ?? "{}"
            var secret: [UInt8] = []
            JobJSONWriter.string(created.secret, into: &secret)
            StandardOutput.line(#"{"endpoint":\#(endpoint),"secret":\#(String(decoding: secret, as: UTF8.self))}"#)
        } else {
            StandardOutput.line("\(verb) webhook endpoint \(created.endpoint.name) → \(created.endpoint.url)")
            StandardOutput.line("secret: \(created.secret)")
            StandardError.line("darkroom: the secret is shown only now; store it where the receiver verifies signatures")
        }
    }

    static func line(_ endpoint: WebhookEndpoint) -> String {
        let privateNote = endpoint.allowPrivateNetwork ? "\tallow-private-network" : ""
        return "\(endpoint.name)\t\(endpoint.url)\tsecrets=\(endpoint.liveSecrets)\t\(endpoint.createdAt.iso8601)\(privateNote)"
    }

    static func line(_ delivery: WebhookDelivery) -> String {
        var fields = [delivery.id, delivery.state.rawValue, delivery.endpoint, delivery.event, delivery.orderKey, "attempts=\(delivery.attempt)"]
        if let next = delivery.nextAttemptAt, delivery.state == .pending { fields.append("next=\(next.iso8601)") }
        if let error = delivery.lastError { fields.append(EventFormatting.sanitized(error)) }
        return fields.joined(separator: "\t")
    }
}
