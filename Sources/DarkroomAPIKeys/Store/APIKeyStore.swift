/// Where API keys live: the driver protocol the job API and `darkroom api-key` use, with an
/// in-memory implementation (`MemoryAPIKeyStore`, for tests and embedded use) and the fleet's
/// (`RedisAPIKeyStore`), held to one contract by the same tests.
///
/// A store keeps each key's record and the SHA-256 digest of its token, never the token; nothing
/// it returns after `create` holds either.
public protocol APIKeyStore: Sendable {
    /// Makes a key from `request` (checked with `APIKeyRequest.validated()`, which throws
    /// `apikey.invalid`) with a fresh id and token.
    func create(_ request: APIKeyRequest) async throws -> CreatedAPIKey

    /// The live key whose token `token` is, or nil: unknown, revoked and malformed tokens are all
    /// nil (a caller answers them alike, `APIKeyError.Code.unauthenticated`). The digests are
    /// compared in constant time.
    func authenticate(_ token: String) async throws -> APIKey?

    /// Every key, revoked ones included, oldest first. Records only: no secret, no digest.
    func list() async throws -> [APIKey]

    /// The key with `id`, or nil when there is none.
    func key(id: String) async throws -> APIKey?

    /// Revokes the key with `id` and returns it (with `revokedAt` set; revoking again keeps the
    /// first time), or nil when there is none. Every process stops authenticating it within
    /// `RedisAPIKeyStore.revocationDelay` (5 s at most).
    @discardableResult
    func revoke(id: String) async throws -> APIKey?
}

extension APIKeyStore {
    /// The live key of an HTTP `Authorization` header (`Bearer <token>`), or nil.
    public func authenticate(authorization: String?) async throws -> APIKey? {
        guard let authorization, let token = APIKeyToken(authorization: authorization) else { return nil }
        return try await authenticate(token.reveal())
    }

    /// `authenticate(authorization:)`, throwing `apikey.unauthenticated` instead of returning nil.
    public func requireKey(authorization: String?) async throws -> APIKey {
        guard let key = try await authenticate(authorization: authorization) else { throw APIKeyError.unauthenticated }
        return key
    }
}
