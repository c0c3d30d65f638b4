import DarkroomAPIKeys
import DarkroomQueue
import Testing

/// What every `APIKeyStore` does, written once and run against each store (`MemoryAPIKeyStore`
/// in `MemoryAPIKeyStoreTests`, `RedisAPIKeyStore` on a real redis-server in
/// `RedisAPIKeyStoreRealTimeTests`).
enum APIKeyStoreContract {
    static let request = APIKeyRequest(
        name: "uploads", scopes: [.submit, .read],
        grants: APIKeyGrants(sources: ["https://images.example.com/uploads/", "HTTPS:"], outputs: ["/srv/out/api/"], maxPriority: .high),
        rateLimit: APIRateLimit(perSecond: 5, burst: 10))

    /// Given a new key, when its token is presented, then that key comes back: the token's id is
    /// the key's, the grants canonical, and the token's description hides the secret.
    static func createThenAuthenticate(_ store: some APIKeyStore) async throws {
        let created = try await store.create(request)
        let token = created.token.reveal()
        #expect(token.hasPrefix(created.key.id + "_"))
        #expect(token.utf8.count == 44)
        #expect(APIKeyToken.isKeyID(created.key.id))
        #expect(!"\(created.token)".contains(token.dropFirst(12)))
        #expect(created.key.grants.sources == ["https:", "https://images.example.com/uploads/"])
        #expect(created.key.isLive)

        let found = try await store.authenticate(token)
        #expect(found == created.key)
        #expect(try await store.authenticate(authorization: "Bearer \(token)") == created.key)
        #expect(try await store.key(id: created.key.id) == created.key)
    }

    /// Given a key, when a wrong, malformed or unknown token is presented, then nothing is
    /// authenticated, and `requireKey` throws `apikey.unauthenticated`.
    static func wrongTokensAuthenticateNothing(_ store: some APIKeyStore) async throws {
        let created = try await store.create(request)
        let token = created.token.reveal()
        let wrongSecret = String(token.dropLast()) + (token.hasSuffix("A") ? "B" : "A")
        let unknownID = "dk_00000000" + token.dropFirst(11)
        for bad in [wrongSecret, unknownID, "", "dk_", token + "x", String(token.dropLast()), token.uppercased()] {
            #expect(try await store.authenticate(bad) == nil, "\(bad.prefix(12))")
        }
        #expect(try await store.authenticate(authorization: "Basic \(token)") == nil)
        #expect(try await store.authenticate(authorization: nil) == nil)
        let error = await #expect(throws: APIKeyError.self) { try await store.requireKey(authorization: "Bearer \(wrongSecret)") }
        #expect(error?.code == .unauthenticated)
        #expect(error?.httpStatus == 401)
    }

    /// Given several keys, when they are listed, then they come oldest first, as records only.
    static func listShowsRecordsInOrder(_ store: some APIKeyStore) async throws {
        var made: [APIKey] = []
        for name in ["first", "second", "third"] {
            var named = request
            named.name = name
            made.append(try await store.create(named).key)
        }
        let listed = try await store.list()
        #expect(listed.map(\.id) == made.map(\.id))
        #expect(listed == made)
    }

    /// Given a key, when it is revoked, then its token authenticates nothing, it is listed with
    /// `revokedAt`, revoking again keeps the first time, and an unknown id revokes nothing.
    static func revokeStopsAuthentication(_ store: some APIKeyStore) async throws {
        let created = try await store.create(request)
        let token = created.token.reveal()
        #expect(try await store.authenticate(token) != nil)
        let revoked = try #require(try await store.revoke(id: created.key.id))
        #expect(revoked.revokedAt != nil)
        #expect(try await store.authenticate(token) == nil)
        let again = try await store.revoke(id: created.key.id)
        #expect(again?.revokedAt == revoked.revokedAt)
        #expect(try await store.list().first { $0.id == created.key.id }?.revokedAt == revoked.revokedAt)
        #expect(try await store.revoke(id: "dk_zzzzzzzz") == nil)
        #expect(try await store.revoke(id: "not an id") == nil)
        #expect(try await store.key(id: "dk_zzzzzzzz") == nil)
    }

    /// Given a request a key cannot be made from, then `create` throws `apikey.invalid`.
    static func invalidRequestsAreRefused(_ store: some APIKeyStore) async throws {
        let bad: [APIKeyRequest] = [
            APIKeyRequest(name: "", scopes: [.read]),
            APIKeyRequest(name: "x", scopes: []),
            APIKeyRequest(name: "x", scopes: [.submit], grants: APIKeyGrants(sources: ["images.example.com"])),
            APIKeyRequest(name: "x", scopes: [.submit], grants: APIKeyGrants(sources: ["https://u:p@example.com/"])),
            APIKeyRequest(name: "x", scopes: [.submit], grants: APIKeyGrants(outputs: ["relative/dir"])),
            APIKeyRequest(name: "x", scopes: [.submit], grants: APIKeyGrants(outputs: ["https:"])),
            APIKeyRequest(name: "x", scopes: [.submit], grants: APIKeyGrants(webhooks: ["has space"])),
            APIKeyRequest(name: "x", scopes: [.submit], rateLimit: APIRateLimit(perSecond: 0, burst: 1)),
            APIKeyRequest(name: "x", scopes: [.submit], rateLimit: APIRateLimit(perSecond: 1, burst: 0)),
        ]
        for request in bad {
            let error = await #expect(throws: APIKeyError.self) { try await store.create(request) }
            #expect(error?.code == .invalid)
        }
        #expect(try await store.list().isEmpty)
    }
}
