import DarkroomQueue
import Testing

@testable import DarkroomAPIKeys

@Suite("MemoryAPIKeyStore meets the API key store contract")
struct MemoryAPIKeyStoreTests {
    @Test("A created key's token authenticates it") func create() async throws {
        try await APIKeyStoreContract.createThenAuthenticate(MemoryAPIKeyStore())
    }

    @Test("Wrong, malformed and unknown tokens authenticate nothing") func wrongTokens() async throws {
        try await APIKeyStoreContract.wrongTokensAuthenticateNothing(MemoryAPIKeyStore())
    }

    @Test("Keys are listed oldest first, as records") func list() async throws {
        try await APIKeyStoreContract.listShowsRecordsInOrder(MemoryAPIKeyStore())
    }

    @Test("A revoked key authenticates nothing and keeps its first revocation time") func revoke() async throws {
        try await APIKeyStoreContract.revokeStopsAuthentication(MemoryAPIKeyStore())
    }

    @Test("Invalid requests make no key") func invalid() async throws {
        try await APIKeyStoreContract.invalidRequestsAreRefused(MemoryAPIKeyStore())
    }

    @Test("The store keeps the token's SHA-256 digest, not the token")
    func digestNotToken() async throws {
        let store = MemoryAPIKeyStore()
        let created = try await store.create(APIKeyStoreContract.request)
        let digest = try #require(store.storedDigest(id: created.key.id))
        #expect(digest == created.token.digest)
        #expect(digest.utf8.count == 64)
        #expect(!digest.contains(created.token.reveal().dropFirst(12)))
    }
}
