import DarkroomAPIKeys

/// How `api-key` commands print keys. A token is printed by `created` alone.
enum APIKeyFormatting {
    /// `ID live|revoked=TIME name=NAME scopes=… sources=… outputs=… webhooks=… max-priority=…
    /// rate=R/s burst=B created=TIME`; `-` for an empty list.
    static func line(_ key: APIKey) -> String {
        func list(_ items: [String]) -> String { items.isEmpty ? "-" : items.map(EventFormatting.sanitized).joined(separator: ",") }
        return [
            key.id, key.revokedAt.map { "revoked=\($0.iso8601)" } ?? "live", "name=" + EventFormatting.quoted(key.name),
            "scopes=" + list(key.sortedScopes.map(\.rawValue)), "sources=" + list(key.grants.sources),
            "outputs=" + list(key.grants.outputs), "webhooks=" + list(key.grants.webhooks),
            "max-priority=\(key.grants.maxPriority)", "rate=\(key.rateLimit.perSecondText)/s", "burst=\(key.rateLimit.burst)",
            "created=\(key.createdAt.iso8601)",
        ].joined(separator: " ")
    }

    /// What `create` prints: the token, then the key and the warning; or one JSON object, the
    /// key's record with `token` added.
    static func created(_ created: CreatedAPIKey, json: Bool) throws -> [String] {
        if json { return [try JSONText.line(CreatedRecord(key: created.key, token: created.token.reveal()))] }
        return [
            created.token.reveal(),
            "created " + line(created.key),
            "This token will not be shown again: Darkroom keeps only its SHA-256 hash. Store it now.",
        ]
    }

    /// The key's record and its token in one object.
    private struct CreatedRecord: Encodable {
        var key: APIKey
        var token: String

        enum CodingKeys: String, CodingKey { case token }

        func encode(to encoder: any Encoder) throws {
            try key.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(token, forKey: .token)
        }
    }
}
