import DarkroomQueue

/// An API key as the store keeps it and lists it: who it is, what it may do and what it may name.
/// It never holds the secret or its hash (those live in the store only), so an `APIKey` may be
/// logged, listed and printed as JSON.
///
/// JSON (`darkroom api-key list --json`, sorted keys):
///
///     {"createdAt":"2026-11-27T12:00:00.000Z","grants":{"maxPriority":"normal","outputs":[],
///      "sources":["data:","http:","https:"],"webhooks":[]},"id":"dk_AbC123xY","name":"uploads",
///      "rateLimit":{"burst":100,"perSecond":50},"scopes":["submit","read"]}
///
/// `revokedAt` is there once the key is revoked.
public struct APIKey: Sendable, Hashable, Codable {
    /// The public id, `dk_` and 8 letters and digits; the first 11 characters of its token.
    public var id: String
    /// A label for people (`uploads`, `billing service`).
    public var name: String
    /// What the key may do (`has(scope:)` reads these).
    public var scopes: Set<APIScope>
    /// What the key may name in what it submits.
    public var grants: APIKeyGrants
    /// The key's token bucket.
    public var rateLimit: APIRateLimit
    public var createdAt: Timestamp
    /// When the key was revoked, or nil while it is live. A revoked key authenticates nothing.
    public var revokedAt: Timestamp?

    public init(
        id: String, name: String, scopes: Set<APIScope>, grants: APIKeyGrants, rateLimit: APIRateLimit = .default,
        createdAt: Timestamp, revokedAt: Timestamp? = nil
    ) {
        self.id = id
        self.name = name
        self.scopes = scopes
        self.grants = grants
        self.rateLimit = rateLimit
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    /// True while the key is not revoked.
    public var isLive: Bool { revokedAt == nil }

    /// The scopes in their fixed order (submit, read, admin).
    public var sortedScopes: [APIScope] { scopes.sorted() }

    /// Whether the key has `scope`, directly or through `admin` (which includes `read`).
    public func has(scope: APIScope) -> Bool {
        scopes.contains { $0.includes(scope) }
    }

    /// Whether the key may see and act on a job or batch that `owner` (a key id) submitted: its
    /// own, or any with `admin`. Work with no recorded owner (enqueued with the CLI) is admin's.
    public func mayAccess(ownedBy owner: String?) -> Bool {
        has(scope: .admin) || (owner != nil && owner == id)
    }

    /// The key a dashboard login (the coordinator's access token) acts as: `admin` (it reads and
    /// acts on every key's work), granted nothing to submit. Its id, `dashboard`, is not a key id's
    /// shape, so no stored key has it; the caller bounds its session's life.
    public static func dashboardSession(startedAt: Timestamp = .now(), rateLimit: APIRateLimit = .default) -> APIKey {
        APIKey(
            id: "dashboard", name: "dashboard session", scopes: [.admin], grants: APIKeyGrants(sources: [], maxPriority: .low),
            rateLimit: rateLimit, createdAt: startedAt)
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, scopes, grants, rateLimit, createdAt, revokedAt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        scopes = Set(try container.decode([APIScope].self, forKey: .scopes))
        grants = try container.decode(APIKeyGrants.self, forKey: .grants)
        rateLimit = try container.decode(APIRateLimit.self, forKey: .rateLimit)
        createdAt = try container.decode(Timestamp.self, forKey: .createdAt)
        revokedAt = try container.decodeIfPresent(Timestamp.self, forKey: .revokedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(sortedScopes, forKey: .scopes)
        try container.encode(grants, forKey: .grants)
        try container.encode(rateLimit, forKey: .rateLimit)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(revokedAt, forKey: .revokedAt)
    }
}
