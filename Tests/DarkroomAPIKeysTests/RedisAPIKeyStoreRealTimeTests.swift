import DarkroomQueue
import DarkroomRedis
import Testing

@testable import DarkroomAPIKeys

/// `RedisAPIKeyStore` on a real redis-server: the store contract, what Redis holds, and
/// revocation reaching a second process's store within its cache's time to live.
@Suite("RedisAPIKeyStore on a real Redis meets the contract and revokes across processes", .serialized, .realTime)
struct RedisAPIKeyStoreRealTimeTests {
    let redis: RedisKeysFixture
    var client: RedisClient { redis.client }
    var prefix: String { redis.prefix }

    init() throws {
        redis = try RedisKeysFixture()
    }

    func store(cacheTTL: Duration = .seconds(2)) -> RedisAPIKeyStore {
        RedisAPIKeyStore(client: client, keyPrefix: prefix, cacheTTL: cacheTTL)
    }

    @Test("A created key's token authenticates it") func create() async throws {
        try await APIKeyStoreContract.createThenAuthenticate(store())
    }

    @Test("Wrong, malformed and unknown tokens authenticate nothing") func wrongTokens() async throws {
        try await APIKeyStoreContract.wrongTokensAuthenticateNothing(store())
    }

    @Test("Keys are listed oldest first, as records") func list() async throws {
        try await APIKeyStoreContract.listShowsRecordsInOrder(store())
    }

    @Test("A revoked key authenticates nothing and keeps its first revocation time") func revoke() async throws {
        try await APIKeyStoreContract.revokeStopsAuthentication(store())
    }

    @Test("Invalid requests make no key") func invalid() async throws {
        try await APIKeyStoreContract.invalidRequestsAreRefused(store())
    }

    @Test("Redis holds the record and the token's SHA-256 digest under the prefix, never the token")
    func redisHoldsTheDigest() async throws {
        let created = try await store().create(APIKeyStoreContract.request)
        let token = created.token.reveal()
        let secret = String(token.dropFirst(12))
        let names = (try await client.command(["KEYS", "\(prefix):*"]).array ?? []).compactMap(\.string).sorted()
        #expect(names == ["\(prefix):apikeys:index", "\(prefix):apikeys:key:\(created.key.id)"])
        let hash = try await client.command(["HGETALL", "\(prefix):apikeys:key:\(created.key.id)"]).array ?? []
        let fields = Dictionary(
            uniqueKeysWithValues: stride(from: 0, to: hash.count - 1, by: 2).map { (hash[$0].string ?? "", hash[$0 + 1].string ?? "") })
        #expect(fields["digest"] == created.token.digest)
        #expect(Set(fields.keys) == ["record", "digest"])
        for (name, value) in fields { #expect(!value.contains(secret), "\(name) holds the secret") }
        // Every byte of the server's memory that a dump shows: the secret is in none of them.
        for name in names {
            let dump = try await client.command(["DUMP", name]).bytes ?? []
            #expect(!String(decoding: dump, as: UTF8.self).contains(secret))
        }
    }

    @Test("A key revoked through one store stops authenticating in another within its cache TTL (≤ 5 s)")
    func revocationReachesAnotherProcess() async throws {
        let api = store(cacheTTL: .seconds(2))
        let admin = RedisAPIKeyStore(client: try redis.otherClient(), keyPrefix: prefix)
        #expect(api.revocationDelay == .seconds(2))
        let created = try await admin.create(APIKeyStoreContract.request)
        let token = created.token.reveal()
        #expect(try await api.authenticate(token) != nil)  // now in `api`'s cache

        try await admin.revoke(id: created.key.id)
        #expect(try await admin.authenticate(token) == nil)
        let start = ContinuousClock.now
        while try await api.authenticate(token) != nil {
            #expect(ContinuousClock.now - start < .seconds(5), "still authenticated 5 s after the revocation")
            if ContinuousClock.now - start >= .seconds(5) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test("The cache's time to live is never above 5 s; zero asks Redis each time")
    func cacheTTLIsBounded() async throws {
        #expect(store(cacheTTL: .seconds(60)).revocationDelay == .seconds(5))
        let uncached = store(cacheTTL: .zero)
        let admin = store()
        let created = try await admin.create(APIKeyStoreContract.request)
        #expect(try await uncached.authenticate(created.token.reveal()) != nil)
        try await admin.revoke(id: created.key.id)
        #expect(try await uncached.authenticate(created.token.reveal()) == nil)
    }

    @Test("A record that is not an API key's is an error, not a missing key")
    func garbageRecord() async throws {
        try await client.command(["HSET", "\(prefix):apikeys:key:dk_garbage0", "record", "{]", "digest", "x"])
        await #expect(throws: RedisError.self) { try await store().key(id: "dk_garbage0") }
    }
}
