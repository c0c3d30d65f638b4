import DarkroomFleetStatus
import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Foundation
import Testing

/// `darkroom coordinator` as a real process beside a real worker and redis-server: the event log
/// it writes holds every event of the stream exactly once, in stream order, and its projections
/// count every event exactly once, across a SIGKILL.
@Suite("The coordinator's event log and projections, end to end with real processes and Redis", .serialized, .realTime)
struct CoordinatorRealTimeTests {
    /// The log's complete lines as (streamId, event id) pairs.
    static func logged(_ path: String) throws -> [[String]] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { line in
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return [record["streamId"] as? String ?? "", record["id"] as? String ?? "", record["type"] as? String ?? ""]
        }
    }

    static func eventually(timeout: Duration = .seconds(90), _ what: String, _ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while try !condition() {
            if ContinuousClock.now >= deadline {
                Issue.record("timed out waiting for \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test(
        "The coordinator SIGKILLed mid-batch and restarted: the log holds exactly one line per event of the stream, in stream order, and the projections are exact"
    )
    func killedCoordinator() async throws {
        let fleet = try FleetKit()
        let log = fleet.path("logs/events.jsonl")
        let sources = try (0..<16).map { try fleet.image("k\($0).png", width: 400, height: 300, seed: $0) }
        let first = try fleet.start(["coordinator", "--event-log", log], label: "coordinator-1")
        let worker = try fleet.worker(name: "w1", concurrency: 1)
        let enqueue = try await fleet.run(["enqueue"] + sources + ["-p", "blur(4)|>resize(200x150)", "--batch", "logged"])
        #expect(enqueue.status == 0, "\(enqueue.error)")

        // Some events logged, the batch still running: kill the coordinator without warning.
        try await Self.eventually("the first logged results") {
            try Self.logged(log).filter { $0[2] == "succeeded" }.count >= 2
        }
        first.kill(SIGKILL)
        _ = await first.waitForExit(timeout: .seconds(10))
        let loggedBeforeKill = try Self.logged(log).count
        // As if the kill had landed in the middle of a write: a half line at the end.
        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"at":"2026-11-25T12:00:00.000Z","id":"01"#.utf8))
        try handle.close()

        let second = try fleet.start(["coordinator", "--event-log", log], label: "coordinator-2")
        let wait = try await fleet.run(["wait", "logged", "--timeout", "120"])
        #expect(wait.status == 0, "\(wait.output)\(wait.error)")
        worker.kill(SIGTERM)
        #expect(await worker.waitForExit(timeout: .seconds(30)) == 0, "\(worker.error)")

        let stream = try await fleet.envelopes()
        try await Self.eventually("the log to catch up with the stream") { try Self.logged(log).count >= stream.count }
        try await Self.checkProjections(fleet, stream: stream)
        second.kill(SIGTERM)
        #expect(await second.waitForExit(timeout: .seconds(30)) == 0, "\(second.error)")
        let expected = stream.map { [$0.cursor.rawValue, $0.event.id, $0.event.type.rawValue] }
        #expect(try Self.logged(log) == expected)
        #expect(stream.filter { $0.event.type == .succeeded }.count == 16)
        // The restarted coordinator had work left: the kill came mid-batch.
        #expect(loggedBeforeKill < stream.count)
    }

    @Test("Without a coordinator, status shows what Redis holds and names the fields that need one")
    func statusWithoutCoordinator() async throws {
        let fleet = try FleetKit()
        let source = try fleet.image("s.png")
        let enqueue = try await fleet.run(["enqueue", source, "-p", "blur(2)", "--batch", "plain", "--priority", "high"])
        #expect(enqueue.status == 0, "\(enqueue.error)")

        let json = try await fleet.run(["status", "--batch", "plain", "--json"])
        #expect(json.status == 0, "\(json.error)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let high = try #require((record["queues"] as? [String: Any])?["high"] as? [String: Any])
        #expect(high["ready"] as? Int == 1)
        #expect(high["lagSeconds"] as? Double != nil)
        let batch = try #require((record["batches"] as? [[String: Any]])?.first)
        #expect(batch["total"] as? Int == 1)
        #expect(batch["running"] == nil)
        #expect((record["needsCoordinator"] as? [String])?.contains("batches[].running") == true)
        #expect(record["coordinator"] == nil)

        let text = try await fleet.run(["status"])
        #expect(text.status == 0, "\(text.error)")
        #expect(text.output.contains("No coordinator is registered"))
        #expect(text.output.contains("high"))

        // top, not on a terminal: one summary line per refresh.
        let top = try await fleet.run(["top", "--count", "2", "--interval", "0.2"])
        #expect(top.status == 0, "\(top.error)")
        let lines = top.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains(" jobs/s ") && $0.contains("ready=1") })
    }

    /// Waits for the projections to reach the end of `stream`, then checks them against it: the
    /// batch through `darkroom status --json`, a job through `status --job`, and the worker's
    /// counts straight from Redis.
    static func checkProjections(_ fleet: FleetKit, stream: [EventEnvelope]) async throws {
        let client = RedisClient(url: try RedisURL(fleet.redis.url))
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client)
        let latest = try #require(stream.last?.cursor)
        let deadline = ContinuousClock.now + .seconds(60)
        while try await RedisCoordinatorStore(queue: queue).coordinatorRegistration()?.checkpoint != latest, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try await RedisCoordinatorStore(queue: queue).coordinatorRegistration()?.checkpoint == latest)

        let status = try await fleet.run(["status", "--batch", "logged", "--json"])
        #expect(status.status == 0, "\(status.error)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])
        let batch = try #require((record["batches"] as? [[String: Any]])?.first)
        #expect(batch["total"] as? Int == 16)
        #expect(batch["succeeded"] as? Int == 16)
        #expect(batch["running"] as? Int == 0)
        #expect(batch["queued"] as? Int == 0)
        #expect(batch["p95Ms"] as? Double != nil)
        #expect((record["needsCoordinator"] as? [Any])?.isEmpty == true)

        let terminal = stream.filter { $0.event.type == .succeeded }
        let job = try #require(terminal.first?.event.job)
        let shown = try await fleet.run(["status", "--job", job.rawValue, "--json"])
        let jobRecord = try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
        #expect(jobRecord["source"] as? String == "projection")
        let shownEvent = try #require(jobRecord["event"] as? [String: Any])
        #expect(shownEvent["type"] as? String == "succeeded")
        // What the job was: its source (a file path, so unredacted) and canonical chain, in both outputs.
        let source = try #require(shownEvent["source"] as? String)
        let chain = try #require(shownEvent["chain"] as? String)
        #expect(source.hasPrefix("/") && source.hasSuffix(".png"))
        #expect(chain.contains("blur") && chain.contains("resize"))
        let human = try await fleet.run(["status", "--job", job.rawValue])
        #expect(human.status == 0, "\(human.error)")
        #expect(human.output.contains("\n  source: \(source)\n  chain:  \(chain)\n"), "\(human.output)")

        let worker = try #require(try await RedisCoordinatorStore(queue: queue).workerProjections().first { $0.name == "w1" })
        #expect(worker.jobsDone == terminal.filter { $0.event.worker == "w1" }.count)
        #expect(worker.jobsDone == 16)
        #expect(worker.currentJobs == 0)
    }
}
