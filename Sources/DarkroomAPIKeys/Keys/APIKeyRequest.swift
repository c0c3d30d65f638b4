import DarkroomQueue

/// What a new key is to be: `APIKeyStore.create` checks it (`validated()`) and makes the key.
public struct APIKeyRequest: Sendable, Hashable {
    public var name: String
    public var scopes: Set<APIScope>
    public var grants: APIKeyGrants
    public var rateLimit: APIRateLimit

    public init(name: String, scopes: Set<APIScope>, grants: APIKeyGrants = APIKeyGrants(), rateLimit: APIRateLimit = .default) {
        self.name = name
        self.scopes = scopes
        self.grants = grants
        self.rateLimit = rateLimit
    }

    /// The request with its grants in canonical form; `apikey.invalid` names the first problem:
    /// a name that is empty, longer than 100 bytes or has control characters, no scope, a grant
    /// that cannot be parsed, or a rate or burst out of range.
    public func validated() throws(APIKeyError) -> APIKeyRequest {
        guard (1...100).contains(name.utf8.count), !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw APIKeyError(.invalid, "a key's name must be 1–100 bytes without control characters")
        }
        guard !scopes.isEmpty else { throw APIKeyError(.invalid, "a key needs at least one scope (submit, read, admin)") }
        if let problem = rateLimit.problem { throw APIKeyError(.invalid, problem) }
        var checked = self
        checked.grants = try grants.validated()
        return checked
    }
}

extension APIKeyRequest {
    /// The key this (validated) request makes with `token`'s id.
    func key(for token: APIKeyToken, createdAt: Timestamp) -> APIKey {
        APIKey(id: token.id, name: name, scopes: scopes, grants: grants, rateLimit: rateLimit, createdAt: createdAt)
    }
}

/// A key just made: the key, and its token — the only time the token exists outside the caller
/// that presents it. Show it once and drop it.
public struct CreatedAPIKey: Sendable {
    public let key: APIKey
    public let token: APIKeyToken

    public init(key: APIKey, token: APIKeyToken) {
        self.key = key
        self.token = token
    }
}
