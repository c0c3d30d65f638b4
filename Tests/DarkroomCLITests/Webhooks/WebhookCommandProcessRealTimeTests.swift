import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import DarkroomWebhooks
import Foundation
import Testing

/// `darkroom webhook` and `enqueue --webhook` as people run them: the built binary against a real
/// redis-server, checked through the webhook stores of this process.
@Suite("webhook commands end to end: the darkroom binary against a real Redis", .realTime, .serialized)
struct WebhookCommandProcessRealTimeTests {
    typealias Kit = QueueCLITestKit

    let server: RedisTestServer
    let prefix = Kit.prefix()
    let client: RedisClient

    init() throws {
        server = try RedisTestServer()
        client = RedisClient(url: try RedisURL(server.url))
    }

    func run(_ arguments: [String]) throws -> Kit.Run {
        try Kit.run(arguments, redis: server.url, prefix: prefix)
    }

    @Test("add prints the secret once; list, rotate, retire-old and remove manage it; no listing shows a secret")
    func endpoints() async throws {
        let added = try run(["webhook", "add", "orders", "https://hooks.example.com/darkroom"])
        #expect(added.status == 0, "\(added.error)")
        let secret = try #require(added.lines.last?.split(separator: " ").last.map(String.init))
        #expect(secret.hasPrefix("whsec_") && secret.count == 70)
        let store = RedisWebhookEndpointStore(client: client, keyPrefix: prefix)
        #expect(try await store.secrets(for: "orders") == [secret])

        #expect(try run(["webhook", "add", "orders", "https://x.example.com/"]).status == 1)
        #expect(try run(["webhook", "add", "bad name", "https://x.example.com/"]).status == 2)
        #expect(try run(["webhook", "add", "ftp", "ftp://x.example.com/"]).status == 2)

        let rotated = try run(["webhook", "rotate", "orders", "--json"])
        #expect(rotated.status == 0, "\(rotated.error)")
        #expect(try run(["webhook", "rotate", "orders"]).status == 1)
        let listed = try run(["webhook", "list", "--json"])
        #expect(listed.status == 0)
        #expect(listed.lines.count == 1)
        #expect(listed.lines[0].contains(#""liveSecrets":2"#))
        #expect(!listed.output.contains("whsec_") && !listed.error.contains("whsec_"))
        #expect(try run(["webhook", "retire-old", "orders"]).status == 0)
        #expect(try run(["webhook", "retire-old", "orders"]).status == 1)
        #expect(try run(["webhook", "remove", "orders"]).status == 0)
        #expect(try run(["webhook", "remove", "orders"]).status == 1)
    }

    @Test("enqueue --webhook needs an existing endpoint and subscribes every job before enqueueing")
    func enqueueWithWebhook() async throws {
        let directory = try Kit.makeDirectory("webhook")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = directory + "/a.jpg"
        #expect(FileManager.default.createFile(atPath: source, contents: Data([0xFF, 0xD8])))
        let refused = try run(["enqueue", source, "-p", "resize(10x10)", "--webhook", "nope", "--allow-unoffered"])
        #expect(refused.status == 2)
        #expect(refused.error.contains("webhook nope: no webhook endpoint has that name"))

        #expect(try run(["webhook", "add", "app", "https://hooks.example.com/"]).status == 0)
        let enqueued = try run(["enqueue", source, "-p", "resize(10x10)", "--webhook", "app", "--allow-unoffered", "--print-ids"])
        #expect(enqueued.status == 0, "\(enqueued.error)")
        let id = try #require(enqueued.lines.first?.split(separator: "\t").first.flatMap { JobID(rawValue: String($0)) })
        let subscriptions = RedisWebhookSubscriptions(client: client, keyPrefix: prefix)
        #expect(try await subscriptions.endpoints(for: [id]) == ["app"])
        // The job record names its endpoint.
        let entries = try await client.command(["XRANGE", "\(prefix):jobs:normal", "-", "+"])
        let record = entries.array?.first?.array?.last?.array?.last?.string
        #expect(record?.hasSuffix(#","webhook":"app"}"#) == true)

        // A job line may name its own endpoint.
        let list = directory + "/jobs.jsonl"
        let line = #"{"source":"\#(source)","id":"line-job","webhook":"app"}"# + "\n"
        #expect(FileManager.default.createFile(atPath: list, contents: Data(line.utf8)))
        let fromList = try run(["enqueue", "--from", list, "-p", "resize(10x10)", "--allow-unoffered"])
        #expect(fromList.status == 0, "\(fromList.error)")
        #expect(try await subscriptions.endpoints(for: [try #require(JobID(rawValue: "line-job"))]) == ["app"])
        let badLine = #"{"source":"\#(source)","id":"other-job","webhook":"missing"}"# + "\n"
        #expect(FileManager.default.createFile(atPath: list, contents: Data(badLine.utf8)))
        #expect(try run(["enqueue", "--from", list, "-p", "resize(10x10)", "--allow-unoffered"]).status == 2)

        let failed = try run(["webhook", "deliveries", "--failed", "--json"])
        #expect(failed.status == 0 && failed.lines.isEmpty)
        #expect(try run(["webhook", "redeliver", "unknown-id"]).status == 1)
    }
}
