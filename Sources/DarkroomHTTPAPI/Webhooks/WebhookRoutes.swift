import DarkroomAPIKeys
import DarkroomQueue
import DarkroomWebhooks
import Foundation
import Hummingbird

/// The webhook endpoints over HTTP, as `darkroom webhook`: register one (its secret shown in that
/// answer only), list them (never a secret), rotate and retire secrets, remove one, list
/// deliveries and redeliver a failed one. Every route needs `admin`. Nothing here logs: a secret
/// is only ever in the body of the `201` that made it.
struct WebhookRoutes: Sendable {
    let webhooks: APIWebhooks?

    /// The most deliveries one `GET /v1/webhooks/deliveries` lists.
    static let maxLimit = 1000

    /// An endpoint with its secret, in the answer that made the secret.
    struct Created: Encodable {
        var endpoint: WebhookEndpoint
        var secret: String
    }

    private var stores: APIWebhooks {
        get throws {
            guard let webhooks else { throw APIError(.notFound, "this API serves no webhook endpoints") }
            return webhooks
        }
    }

    /// Runs `body` with the key checked for `admin`; its `WebhookError`s answer with their own status.
    private func managing(_ key: APIKey, _ body: (APIWebhooks) async throws -> Response) async throws -> Response {
        try key.permits(scope: .admin)
        let stores = try stores
        do {
            return try await body(stores)
        } catch let error as WebhookError {
            throw WebhookManagementError(error: error)
        }
    }

    /// `POST /v1/webhooks` with `{"name", "url", "allowPrivateNetwork"?}`: 201 with the endpoint
    /// and its secret.
    func create(_ body: [UInt8], key: APIKey) async throws -> Response {
        try await managing(key) { stores in
            struct Request: Decodable {
                var name: String
                var url: String
                var allowPrivateNetwork: Bool?
            }
            let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
            guard let object, let request = try? JSONDecoder().decode(Request.self, from: Data(body)) else {
                throw APIError(.invalidJSON, #"the body must be {"name": "...", "url": "https://...", "allowPrivateNetwork": false}"#)
            }
            if let unknown = object.keys.sorted().first(where: { !["name", "url", "allowPrivateNetwork"].contains($0) }) {
                throw APIError(.invalidField, "unknown field '\(unknown.prefix(64))': a webhook endpoint has name, url and allowPrivateNetwork")
            }
            let created = try await stores.endpoints.create(
                name: request.name, url: request.url, allowPrivateNetwork: request.allowPrivateNetwork ?? false)
            return try APIResponse.json(.created, Created(endpoint: created.endpoint, secret: created.secret))
        }
    }

    /// `GET /v1/webhooks`: every endpoint, by name, without secrets.
    func list(key: APIKey) async throws -> Response {
        try await managing(key) { stores in
            struct Answer: Encodable { var webhooks: [WebhookEndpoint] }
            return try APIResponse.json(.ok, Answer(webhooks: try await stores.endpoints.list()))
        }
    }

    /// `DELETE /v1/webhooks/{name}`: removes the endpoint and its secrets.
    func remove(_ name: String, key: APIKey) async throws -> Response {
        try await managing(key) { stores in
            struct Answer: Encodable { var removed: String }
            guard try await stores.endpoints.remove(name: name) else { throw Self.unknown(name) }
            return try APIResponse.json(.ok, Answer(removed: name))
        }
    }

    /// `POST /v1/webhooks/{name}/rotate`: 201 with the new secret; the old one signs too until
    /// `retire-old`.
    func rotate(_ name: String, key: APIKey) async throws -> Response {
        try await managing(key) { stores in
            let rotated = try await stores.endpoints.rotate(name: name)
            return try APIResponse.json(.created, Created(endpoint: rotated.endpoint, secret: rotated.secret))
        }
    }

    /// `POST /v1/webhooks/{name}/retire-old`: drops the older of two live secrets.
    func retireOld(_ name: String, key: APIKey) async throws -> Response {
        try await managing(key) { stores in
            try APIResponse.json(.ok, try await stores.endpoints.retireOldSecret(name: name))
        }
    }

    /// `GET /v1/webhooks/deliveries?failed=true&limit=N&cursor=C`: pending deliveries (oldest
    /// first) or failed ones (latest first, with the count a cap dropped), without bodies, after
    /// the previous page's `nextCursor`, and this page's (null on the last).
    func deliveries(failed text: String?, limit limitText: String?, cursor: String?, key: APIKey) async throws -> Response {
        try await managing(key) { stores in
            struct Answer: Encodable {
                var deliveries: [WebhookDelivery]
                var dropped: Int?
                var nextCursor: NextCursor
            }
            let failed = text == "true"
            guard text == nil || failed || text == "false" else {
                throw APIError(.invalidField, "'failed' must be true or false (got '\(text?.prefix(20) ?? "")')")
            }
            let limit = try QueryLimit.parse(limitText, max: Self.maxLimit)
            if let cursor, !RedisWebhookOutbox.isCursor(cursor) {
                throw APIError(.invalidField, "'cursor' must be the nextCursor of a previous page (got '\(cursor.prefix(40))')")
            }
            let page = try await stores.outbox.list(failed: failed, after: cursor, limit: limit)
            var dropped: Int?
            if failed { dropped = try await stores.outbox.droppedCount() }
            return try APIResponse.json(.ok, Answer(deliveries: page.deliveries, dropped: dropped, nextCursor: NextCursor(page.nextCursor)))
        }
    }

    /// `POST /v1/webhooks/deliveries/{id}/redeliver`: a failed (or delivered) delivery is pending
    /// again, with the same id and body.
    func redeliver(_ id: String, key: APIKey) async throws -> Response {
        try await managing(key) { stores in
            struct Answer: Encodable {
                var id: String
                var state: WebhookDelivery.State
            }
            try await stores.outbox.redeliver(id)
            return try APIResponse.json(.ok, Answer(id: id, state: .pending))
        }
    }

    static func unknown(_ name: String) -> WebhookError {
        WebhookError(.unknown, "no webhook endpoint is named '\(name.prefix(80))' (GET /v1/webhooks lists them)")
    }
}
