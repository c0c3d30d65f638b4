import DarkroomAPIKeys
import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Foundation
import Testing

/// `darkroom api-key` as people run it: the built binary against a real redis-server, checked
/// through a `RedisAPIKeyStore` of this process (another "API process").
@Suite("api-key commands end to end: the darkroom binary against a real Redis", .serialized, .realTime)
struct APIKeyCommandProcessRealTimeTests {
    typealias Kit = QueueCLITestKit

    let server: RedisTestServer
    let prefix = Kit.prefix()
    let store: RedisAPIKeyStore

    init() throws {
        server = try RedisTestServer()
        store = RedisAPIKeyStore(client: RedisClient(url: try RedisURL(server.url)), keyPrefix: prefix, cacheTTL: .zero)
    }

    func run(_ arguments: [String]) throws -> Kit.Run {
        try Kit.run(["api-key"] + arguments, redis: server.url, prefix: prefix)
    }

    @Test("create prints the token once with a warning, and the token authenticates the key it describes")
    func createText() async throws {
        let created = try run([
            "create", "--name", "web uploads", "--scope", "submit", "--scope", "read", "--allow-source", "https://img.example.com/up/",
            "--allow-output", "/srv/out", "--allow-webhook", "orders", "--max-priority", "high", "--rate", "2.5", "--burst", "7",
        ])
        #expect(created.status == 0, "\(created.error)")
        #expect(created.lines.count == 3)
        let token = try #require(created.lines.first)
        #expect(APIKeyToken(token) != nil)
        #expect(created.lines.last?.contains("will not be shown again") == true)
        let key = try #require(try await store.authenticate(token))
        #expect(key.name == "web uploads" && key.scopes == [.submit, .read])
        #expect(key.grants == APIKeyGrants(sources: ["https://img.example.com/up/"], outputs: ["/srv/out"], webhooks: ["orders"], maxPriority: .high))
        #expect(key.rateLimit == APIRateLimit(perSecond: 2.5, burst: 7))
        #expect(created.lines[1].hasPrefix("created \(key.id) live name=\"web uploads\" scopes=submit,read "))

        // Neither list nor revoke ever prints the token or its hash.
        let secret = String(token.dropFirst(12))
        let digest = try #require(APIKeyToken(token)?.digest)
        for arguments in [["list"], ["list", "--json"], ["revoke", key.id], ["revoke", key.id, "--json"]] {
            let other = try run(arguments)
            #expect(other.status == 0, "\(arguments): \(other.error)")
            for text in [other.output, other.error] { #expect(!text.contains(secret) && !text.contains(digest), "\(arguments)") }
        }
    }

    @Test("create --json prints the record and the token in one object; defaults are http, https and data sources at normal priority")
    func createJSON() async throws {
        let run = try run(["create", "--name", "reader", "--scope", "read,submit", "--json"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let token = try #require(object["token"] as? String)
        let key = try #require(try await store.authenticate(token))
        #expect(object["id"] as? String == key.id)
        #expect(object["scopes"] as? [String] == ["submit", "read"])
        #expect(key.grants == APIKeyGrants())
        #expect(key.rateLimit == .default)
    }

    @Test("list shows every key, revoked ones marked; revoke stops the token at once; unknown ids exit 1")
    func listAndRevoke() async throws {
        let first = try #require(try run(["create", "--name", "a", "--scope", "admin"]).lines.first)
        let second = try #require(try run(["create", "--name", "b", "--scope", "read"]).lines.first)
        let firstID = String(first.prefix(11))
        let secondID = String(second.prefix(11))

        let revoke = try run(["revoke", firstID])
        #expect(revoke.status == 0, "\(revoke.error)")
        #expect(revoke.output.contains("revoked API key \(firstID)"))
        #expect(try await store.authenticate(first) == nil)
        #expect(try await store.authenticate(second) != nil)
        let again = try run(["revoke", firstID])
        #expect(again.status == 0)
        #expect(again.output.contains("already revoked"))

        let list = try run(["list"])
        #expect(list.status == 0, "\(list.error)")
        #expect(list.lines.count == 2)
        #expect(list.lines[0].hasPrefix("\(firstID) revoked="))
        #expect(list.lines[1].hasPrefix("\(secondID) live name=b scopes=read "))
        #expect(list.error.contains("2 API keys (1 revoked)"))
        let json = try run(["list", "--json"])
        let records = try json.lines.map { try RecordJSON.decoder().decode(APIKey.self, from: Data($0.utf8)) }
        #expect(records.map(\.id) == [firstID, secondID])
        #expect(records[0].revokedAt != nil && records[1].revokedAt == nil)

        let unknown = try run(["revoke", "dk_00000000"])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("no API key dk_00000000"))
    }

    @Test("Bad usage exits 2 and creates nothing; an unreachable Redis exits 3")
    func failures() async throws {
        let bad: [[String]] = [
            ["create", "--name", "x"], ["create", "--name", "x", "--scope", "write"], ["create", "--name", "", "--scope", "read"],
            ["create", "--name", "x", "--scope", "read", "--allow-source", "images.example.com"],
            ["create", "--name", "x", "--scope", "read", "--allow-output", "relative"],
            ["create", "--name", "x", "--scope", "read", "--max-priority", "urgent"],
            ["create", "--name", "x", "--scope", "read", "--rate", "0"], ["revoke", "not-an-id"], ["create", "--scope", "read"],
        ]
        for arguments in bad {
            let run = try run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.error)")
            #expect(run.error.hasPrefix("darkroom: ") || run.error.contains("Error: "), "\(arguments): \(run.error)")
        }
        #expect(try await store.list().isEmpty)

        let unreachable = try Kit.run(["api-key", "list"], redis: "redis://127.0.0.1:1", prefix: prefix)
        #expect(unreachable.status == 3, "\(unreachable.error)")
        #expect(unreachable.error.contains("cannot reach Redis"))
    }
}
