import DarkroomQueue
import DarkroomSchema
import Foundation
import Testing

@testable import DarkroomRedis

/// The heartbeat record as Redis holds it (`{p}:worker:<name>`): what older and newer workers
/// write must be read by this build.
@Suite("RedisStreamsQueue heartbeat records")
struct RedisStreamsQueueWorkerRecordTests {
    typealias Kit = StreamsTestKit

    /// Writes `json` as worker `name`'s record, live for a minute, as the driver's heartbeat does.
    static func register(_ name: String, _ json: String, on queue: RedisStreamsQueue, _ client: RedisClient) async throws {
        let expiry = String(Timestamp.now().adding(.seconds(60)).millisecondsSince1970)
        _ = try await client.command(["SET", queue.keys.worker(name), json, "PX", "60000"]).throwingOnError()
        _ = try await client.command(["ZADD", queue.keys.workers, expiry, name]).throwingOnError()
    }

    @Test("Given a heartbeat record from a worker older than schemas, when the live workers are listed, then it is there with its processors and no schemas")
    func olderRecordIsRead() async throws {
        let client = try Kit.client(try Kit.sharedServer.get())
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("oldhb"))
        try await Self.register(
            "old:1",
            #"{"concurrency":2,"host":"h","jobsDone":3,"name":"old:1","pid":1,"processors":{"blur":1,"sepia":2},"#
                + #""seenAt":"2026-11-25T10:00:00.000Z","startedAt":"2026-11-25T09:00:00.000Z","version":"0.1.0"}"#,
            on: queue, client)
        let live = try await queue.liveWorkers()
        #expect(live.map(\.name) == ["old:1"])
        #expect(live.first?.processors == ["blur": 1, "sepia": 2])
        #expect(live.first?.schemas == [])
    }

    @Test(
        "Given a heartbeat record with a schema of a newer format, when the live workers are listed, then the worker is there with the schemas this build reads"
    )
    func newerSchemaIsSkippedNotTheWorker() async throws {
        let client = try Kit.client(try Kit.sharedServer.get())
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("newhb"))
        try await Self.register(
            "new:1",
            #"{"concurrency":2,"host":"h","jobsDone":0,"name":"new:1","pid":1,"processors":{"blur":1,"sepia":3},"schemas":["#
                + #"{"name":"blur","parameters":[{"kind":"positive","max":1000,"name":"radius"}],"schema":1,"version":1},"#
                + #"{"name":"sepia","parameters":[],"schema":2,"version":3,"wholeNewIdea":true}],"#
                + #""seenAt":"2026-11-25T10:00:00.000Z","startedAt":"2026-11-25T09:00:00.000Z","version":"0.3.0"}"#,
            on: queue, client)
        let worker = try #require(try await queue.liveWorkers().first)
        #expect(worker.processors == ["blur": 1, "sepia": 3])
        #expect(worker.schemas == [ProcessorSchema(name: "blur", version: 1, summary: "", parameters: [.init(name: "radius", kind: .positive(max: 1000))])])
    }

    @Test("The stored record is the WorkerInfo JSON with the schemas under 'schemas'")
    func storedRecordHoldsSchemas() async throws {
        let client = try Kit.client(try Kit.sharedServer.get())
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("hbjson"))
        let schema = ProcessorSchema(
            name: "tint", version: 1, summary: "tints", parameters: [.init(name: "color", kind: .color, defaultText: "#FF000080")])
        try await queue.heartbeat(
            WorkerInfo(name: "w:1", host: "h", pid: 1, concurrency: 1, processors: ["tint": 1], schemas: [schema], version: "1", startedAt: .now()),
            ttl: .seconds(60))
        let stored = try #require(try await client.command(["GET", queue.keys.worker("w:1")]).string)
        #expect(
            stored.contains(
                ##""schemas":[{"name":"tint","parameters":[{"default":"#FF000080","kind":"color","name":"color"}],"schema":1,"summary":"tints","version":1}]"##
            ))
    }
}
