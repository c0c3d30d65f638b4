import DarkroomQueue
import DarkroomRedis
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Glibc
import Testing

@testable import DarkroomCLI

/// The queue commands as people run them: the built `darkroom` binary against a real
/// `redis-server`, with this test process acting as the worker through a `RedisStreamsQueue`.
@Suite("Queue commands end to end: the darkroom binary against a real Redis", .serialized, .realTime)
struct QueueCommandProcessRealTimeTests {
    typealias Kit = QueueCLITestKit

    /// A server, a key prefix and this process's queue on them; `run` runs `darkroom` there.
    struct Setup {
        let server: RedisTestServer
        let prefix = Kit.prefix()
        let queue: RedisStreamsQueue

        init() throws {
            server = try RedisTestServer()
            queue = try Kit.queue(on: server, prefix: prefix)
        }

        func run(_ arguments: [String], input: String? = nil, directory: String? = nil) throws -> Kit.Run {
            try Kit.run(arguments, redis: server.url, prefix: prefix, input: input, directory: directory)
        }

        func start(_ arguments: [String]) throws -> Process {
            try Kit.start(arguments, redis: server.url, prefix: prefix)
        }
    }

    @Test("enqueue prints the batch and count, and events shows its batchEnqueued as text and as the stored JSON")
    func enqueueAndEvents() async throws {
        let setup = try Setup()
        let directory = try Kit.makeDirectory("enqueue")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // enqueue refuses a source missing from a directory it can see: the files exist.
        try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
        for name in ["a.jpg", "sub/b.jpg"] { FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data([0xFF])) }
        let run = try setup.run(
            [
                "enqueue", "a.jpg", "sub/b.jpg", "-p", "downsample(400x400) |> blur(2)", "--batch", "nightly",
                "--priority", "high", "--out", "out", "--print-ids",
            ], directory: directory)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.lines.last == "batch nightly: 2 jobs enqueued")
        #expect(run.lines.count == 3)
        #expect(run.lines.first?.hasSuffix("\t\(directory)/a.jpg") == true)

        let jobs = try await setup.queue.reserve(consumer: "t", max: 10, wait: .zero).map(\.job)
        #expect(jobs.map(\.source) == ["\(directory)/a.jpg", "\(directory)/sub/b.jpg"])
        #expect(jobs.allSatisfy { $0.chain == "downsample(400x400)|>blur(2)" && $0.priority == .high && $0.output == "\(directory)/out" })

        let events = try setup.run(["events"])
        #expect(events.status == 0, "\(events.error)")
        #expect(events.lines.count == 1)
        #expect(events.lines.first?.contains("batchEnqueued batch=nightly count=2") == true)
        let json = try setup.run(["events", "--json", "--type", "batchEnqueued"])
        let stored = try #require(try await Kit.events(setup.queue).first)
        #expect(json.lines == [String(decoding: try stored.jsonData(), as: UTF8.self)])
    }

    @Test("Enqueueing the same ids from --from JSON lines again adds nothing, and says so")
    func idempotentEnqueue() async throws {
        let setup = try Setup()
        let list = """
            # thumbnails
            {"source": "/data/a.jpg", "id": "thumb-a"}
            {"source": "/data/b.jpg", "id": "thumb-b", "chain": "blur(1)", "priority": "low", "quality": 70}

            """
        let first = try setup.run(["enqueue", "--from", "-", "-p", "downsample(100x100)", "--batch", "b1", "--json"], input: list)
        #expect(first.status == 0, "\(first.error)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(first.output.utf8)) as? [String: Any])
        #expect(summary["batch"] as? String == "b1")
        #expect(summary["enqueued"] as? Int == 2)
        #expect(summary["skipped"] as? Int == 0)
        let again = try setup.run(["enqueue", "--from", "-", "-p", "downsample(100x100)", "--batch", "b1"], input: list)
        #expect(again.status == 0, "\(again.error)")
        #expect(again.output == "batch b1: 0 jobs enqueued (2 already known: 2 in this batch)\n")

        let jobs = try await setup.queue.reserve(consumer: "t", max: 10, wait: .zero).map(\.job)
        #expect(jobs.map(\.id.rawValue).sorted() == ["thumb-a", "thumb-b"])
        let b = try #require(jobs.first { $0.id.rawValue == "thumb-b" })
        #expect(b.chain == "blur(1)")
        #expect(b.priority == .low)
        #expect(b.quality == 70)
        #expect(try await setup.queue.batchProgress("b1")?.total == 2)
        #expect(try await Kit.events(setup.queue).compactMap(\.count) == [2])
    }

    @Test("A bad chain enqueues nothing: exit 2, naming the processor, argument and column")
    func badChain() async throws {
        let setup = try Setup()
        let run = try setup.run(["enqueue", "/data/a.jpg", "-p", "downsample(400x400)|>blur(radius: -3)"])
        #expect(run.status == 2)
        #expect(run.error.contains("blur: radius must be > 0 (got -3) at column 35"))
        #expect(run.error.contains("nothing was enqueued"))
        let unknown = try setup.run(["enqueue", "/data/a.jpg", "-p", "roundCorner(4)|>vignette(2)"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("unknown processor 'vignette'"))
        #expect(try await setup.queue.counts().readyTotal == 0)
        #expect(try await Kit.events(setup.queue).isEmpty)
    }

    @Test("A processor only a live worker offers is accepted with a note and kept as written")
    func workerOfferedProcessor() async throws {
        let setup = try Setup()
        try await setup.queue.heartbeat(
            WorkerInfo(
                name: "gpu-1", host: "gpu", pid: 9, concurrency: 4, processors: ["sepia": 2],
                version: "0.1.0", startedAt: .now()), ttl: .seconds(60))
        let run = try setup.run(["enqueue", "/data/a.jpg", "-p", "sepia( 0.5 )|>blur(2)", "--batch", "s"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("'sepia' is not built into this darkroom; accepted because live workers offer it (gpu-1 v2)"))
        // It requires the processor, so only a consumer that offers it is handed the job.
        #expect(try await setup.queue.reserve(consumer: "plain", max: 1, wait: .zero).isEmpty)
        let job = try #require(try await setup.queue.reserve(consumer: "t", max: 1, wait: .zero, offering: ["processor:sepia"]).first?.job)
        #expect(job.chain == "sepia(0.5)|>blur(2)")
        #expect(job.requires == ["processor:sepia"])
    }

    @Test("Bad --from lines are each reported by line number and nothing is enqueued")
    func fromLineErrors() async throws {
        let setup = try Setup()
        let directory = try Kit.makeDirectory("from")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let list = "ok.jpg\n{\"source\": \"x.jpg\", \"quality\": 0}\n# fine\n{\"source\": \"y.jpg\", \"chain\": \"blur(\"}\n{broken\n"
        try Data(list.utf8).write(to: URL(fileURLWithPath: directory + "/jobs.txt"))
        let run = try setup.run(["enqueue", "--from", "jobs.txt", "-p", "blur(1)"], directory: directory)
        #expect(run.status == 2)
        #expect(run.error.contains("jobs.txt:2: 'quality' must be 1…100 (got 0)"))
        #expect(run.error.contains("jobs.txt:5: not valid JSON"))
        #expect(run.error.contains("nothing was enqueued"))
        // Line 4's chain is only checked once the list parses; then it is reported by line too.
        let second = try setup.run(["enqueue", "--from", "-", "-p", "blur(1)"], input: "ok.jpg\n{\"source\": \"y.jpg\", \"chain\": \"blur(\"}\n")
        #expect(second.status == 2)
        #expect(second.error.contains("<stdin>:2: bad chain [chain.syntax]"))
        #expect(try await setup.queue.counts().readyTotal == 0)
        #expect(try await Kit.events(setup.queue).isEmpty)
    }

    @Test("wait exits 0 when every job succeeded and 1 when one failed, following a worker that finishes them meanwhile")
    func waitOutcomes() async throws {
        let setup = try Setup()
        _ = try setup.run(["enqueue", "/data/a.jpg", "/data/b.jpg", "-p", "blur(1)", "--batch", "good"])
        _ = try setup.run(["enqueue", "/data/c.jpg", "/data/d.jpg", "-p", "blur(1)", "--batch", "mixed"])
        let good = try setup.start(["wait", "good", "--timeout", "60"])
        let mixed = try setup.start(["wait", "mixed", "--timeout", "60", "--json"])
        // Give the waits a moment to start following (either way they must end the same).
        try await Task.sleep(for: .milliseconds(500))
        try await Kit.finish(setup.queue) { job in
            job.source == "/data/d.jpg" ? .failed(JobError(code: "image.corrupt", message: "truncated JPEG")) : .succeeded(Kit.result())
        }
        let goodRun = Kit.finish(good)
        #expect(goodRun.status == 0, "\(goodRun.error)")
        #expect(goodRun.output.hasPrefix("batch good: 2 jobs — 2 succeeded, 0 failed, 0 dead, 0 cancelled"))
        let mixedRun = Kit.finish(mixed)
        #expect(mixedRun.status == 1, "\(mixedRun.error)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(mixedRun.output.utf8)) as? [String: Any])
        #expect(summary["succeeded"] as? Int == 1)
        #expect(summary["failed"] as? Int == 1)
        let failure = try #require((summary["failures"] as? [[String: Any]])?.first)
        #expect(failure["code"] as? String == "image.corrupt")
        #expect(failure["message"] as? String == "truncated JPEG")
    }

    @Test("wait exits 124 on timeout and 3 for an unknown batch")
    func waitTimeoutAndUnknown() throws {
        let setup = try Setup()
        _ = try setup.run(["enqueue", "/data/a.jpg", "-p", "blur(1)", "--batch", "slow"])
        let late = try setup.run(["wait", "slow", "--timeout", "0.5"])
        #expect(late.status == 124)
        #expect(late.output.hasPrefix("batch slow: timed out after"))
        let unknown = try setup.run(["wait", "no-such-batch"])
        #expect(unknown.status == 3)
        #expect(unknown.error.contains("unknown batch 'no-such-batch'"))
    }

    @Test("wait on a batch that ended before it began reports the batch's own duration, from its first enqueue to its last end")
    func waitReportsTheBatchDuration() async throws {
        let setup = try Setup()
        _ = try setup.run(["enqueue", "/data/a.jpg", "-p", "blur(1)", "--batch", "done"])
        try await Task.sleep(for: .milliseconds(300))
        _ = try setup.run(["enqueue", "/data/b.jpg", "-p", "blur(1)", "--batch", "done"])
        try await Task.sleep(for: .milliseconds(300))
        try await Kit.finish(setup.queue) { _ in .succeeded(Kit.result()) }
        let times = try #require(try await setup.queue.batchTimes("done"))
        let took = try #require(times.duration)
        #expect(took >= .milliseconds(600))

        let run = try setup.run(["wait", "done"])
        #expect(run.status == 0, "\(run.error)")
        let expected = "batch done: 2 jobs — 2 succeeded, 0 failed, 0 dead, 0 cancelled (\(WaitSummary.format((took.inSeconds * 1000).rounded() / 1000)))"
        #expect(run.lines == [expected])
        #expect(!run.output.contains("(0.0 s)"))
        let json = try setup.run(["wait", "done", "--json"])
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(summary["measured"] as? String == "batch")
        #expect((summary["seconds"] as? Double ?? 0) >= 0.6)
    }

    @Test("get names what a job without events can mean: with a coordinator running, not 'without a coordinator'")
    func getUnknownWithCoordinator() async throws {
        let setup = try Setup()
        let directory = try Kit.makeDirectory("get-coordinated")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let alone = try setup.run(["get", "ghost", "-o", directory + "/g.png"])
        #expect(alone.status == 1)
        #expect(alone.error.contains("no coordinator is registered"), "\(alone.error)")

        _ = try setup.run(["enqueue", "/data/a.jpg", "-p", "blur(1)", "--batch", "c"])
        let coordinator = try setup.start(["coordinator"])
        let store = RedisCoordinatorStore(queue: setup.queue)
        let deadline = ContinuousClock.now + .seconds(30)
        while try await store.coordinatorRegistration()?.checkpoint == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        let run = try setup.run(["get", "ghost", "-o", directory + "/g.png"])
        let status = try setup.run(["status", "--job", "ghost"])
        coordinator.terminate()
        let stopped = Kit.finish(coordinator)
        #expect(stopped.status == 0, "\(stopped.error)")
        #expect(run.status == 1)
        #expect(run.error.contains("has no events: it is unknown, still queued, or its last event is more than 7 days old"), "\(run.error)")
        #expect(!run.error.contains("without a coordinator") && !run.error.contains("no coordinator"), "\(run.error)")
        #expect(status.status == 1)
        #expect(status.error.contains("more than 7 days old"), "\(status.error)")
    }

    @Test("cancel drops queued jobs with cancelled events and leaves the running one to finish")
    func cancel() async throws {
        let setup = try Setup()
        _ = try setup.run(["enqueue", "/data/a.jpg", "/data/b.jpg", "/data/c.jpg", "-p", "blur(1)", "--batch", "c"])
        let running = try #require(try await setup.queue.reserve(consumer: "t", max: 1, wait: .zero).first)
        let run = try setup.run(["cancel", "c"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "batch c: cancelled 2 queued jobs; 1 already running will finish\n")
        #expect(try await setup.queue.acknowledge(running, outcome: .succeeded(Kit.result())))
        #expect(try await setup.queue.batchProgress("c") == BatchProgress(total: 3, succeeded: 1, cancelled: 2))
        let cancelled = try setup.run(["events", "--batch", "c", "--type", "cancelled"])
        #expect(cancelled.lines.count == 2)

        let ids = try Kit.ids(try setup.run(["enqueue", "/data/d.jpg", "-p", "blur(1)", "--batch", "d", "--id-from-source", "--print-ids"]))
        let d = try #require(ids["/data/d.jpg"])
        let byJob = try setup.run(["cancel", "--job", d, "never-enqueued", "--json"])
        #expect(byJob.status == 0, "\(byJob.error)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(byJob.output.utf8)) as? [String: Any])
        #expect(result["cancelled"] as? Int == 1)
        #expect(result["jobs"] as? Int == 2)
        #expect(try setup.run(["cancel", "no-such-batch"]).status == 3)
    }

    @Test("dlq lists dead letters, retries them by job or entry id back into their batch, and purges only with --yes")
    func deadLetters() async throws {
        let setup = try Setup()
        let ids = try Kit.ids(
            try setup.run(["enqueue", "/data/a.jpg", "/data/b.jpg", "/data/c.jpg", "-p", "blur(1)", "--batch", "d", "--id-from-source", "--print-ids"]))
        let a = try #require(ids["/data/a.jpg"])
        let b = try #require(ids["/data/b.jpg"])
        try await Kit.finish(setup.queue) { _ in nil }
        let list = try setup.run(["dlq", "list"])
        #expect(list.status == 0, "\(list.error)")
        #expect(list.lines.count == 3)
        #expect(list.lines[0].contains("job=\(a) batch=d attempt=1 source=/data/a.jpg queue.test: buried by the test"))
        #expect(list.error.contains("3 dead letters"))
        let json = try setup.run(["dlq", "list", "--json", "--limit", "1"])
        let record = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect((record["job"] as? [String: Any])?["source"] as? String == "/data/a.jpg")
        let entryA = try #require(record["id"] as? String)

        let byJob = try setup.run(["dlq", "retry", b])
        #expect(byJob.status == 0, "\(byJob.error)")
        #expect(byJob.output == "requeued 1 dead letter\n")
        let byEntry = try setup.run(["dlq", "retry", entryA])
        #expect(byEntry.output == "requeued 1 dead letter\n")
        #expect(try await setup.queue.batchProgress("d") == BatchProgress(total: 3, dead: 1))
        #expect(
            try await setup.queue.reserve(consumer: "t", max: 5, wait: .zero).map(\.job.id.rawValue).sorted()
                == [a, b].sorted())
        #expect(try setup.run(["dlq", "retry"]).status == 2)
        #expect(try setup.run(["dlq", "retry", "not-dead"]).status == 1)
        #expect(try setup.run(["dlq", "retry", "1-1"]).status == 1)

        let refused = try setup.run(["dlq", "purge"])
        #expect(refused.status == 2)
        #expect(refused.error.contains("refusing to delete 1 dead letter without --yes"))
        let purge = try setup.run(["dlq", "purge", "--yes"])
        #expect(purge.output == "purged 1 dead letter\n")
        #expect(try await setup.queue.counts().deadLettered == 0)
    }

    @Test("get copies a finished job's result atomically, and explains unfinished, unknown and evicted jobs")
    func get() async throws {
        let setup = try Setup()
        let directory = try Kit.makeDirectory("get")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/cached.png"))
        _ = try setup.run(["enqueue", "/data/a.jpg", "/data/b.jpg", "-p", "blur(1)", "--id-from-source"])
        let pending = try await setup.queue.reserve(consumer: "t", max: 2, wait: .zero)
        for delivery in pending {
            try await setup.queue.publish([.started(job: delivery.job.id, batch: delivery.job.batch, worker: "t", attempt: 1)])
        }
        let a = try #require(pending.first { $0.job.source == "/data/a.jpg" })
        #expect(try await setup.queue.acknowledge(a, outcome: .succeeded(Kit.result(output: directory + "/cached.png", bytes: 5000))))

        let run = try setup.run(["get", "/data/a.jpg", "-o", directory + "/copy.png"])
        #expect(run.status == 0, "\(run.error)")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/copy.png"))) == bytes)
        #expect(run.output == "\(directory)/copy.png: 40x30 png, 5000 bytes\n")

        let unfinished = try setup.run(["get", "/data/b.jpg", "-o", directory + "/b.png"])
        #expect(unfinished.status == 1)
        #expect(unfinished.error.contains("is not finished: worker t started attempt 1"))
        let unknown = try setup.run(["get", "ghost", "-o", directory + "/g.png"])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains("has no events: it is unknown"))
        #expect(unknown.error.contains("no coordinator is registered"))
        try FileManager.default.removeItem(atPath: directory + "/cached.png")
        let evicted = try setup.run(["get", "/data/a.jpg", "-o", directory + "/again.png"])
        #expect(evicted.status == 1)
        #expect(evicted.error.contains("is gone (evicted from the cache, or deleted); run the job again"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/again.png"))
    }

    @Test("Every one-shot command exits 3 at once when Redis is down, naming the URL without the password")
    func unreachable() throws {
        let server = try RedisTestServer()
        let url = server.url(password: "hunter2")
        server.stop()
        let commands: [[String]] = [
            ["enqueue", "/data/a.jpg", "-p", "blur(1)"], ["events"], ["wait", "b"], ["cancel", "b"],
            ["dlq", "list"], ["dlq", "retry", "--all"], ["dlq", "purge", "--yes"], ["get", "j", "-o", "/tmp/x"],
        ]
        for arguments in commands {
            let run = try Kit.run(arguments, redis: url, prefix: "x")
            #expect(run.status == 3, "\(arguments): \(run.error)")
            #expect(run.error.contains("cannot reach Redis at redis://:***@127.0.0.1:\(server.port)/0"), "\(arguments): \(run.error)")
            #expect(!run.error.contains("hunter2"))
        }
    }

    @Test("events --follow prints new events as they come and exits 0 on SIGINT, saying where to resume")
    func follow() async throws {
        let setup = try Setup()
        let directory = try Kit.makeDirectory("follow")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let outputPath = directory + "/out.txt"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Kit.darkroomBinary)
        process.arguments = ["events", "--follow", "--type", "succeeded"]
        var environment = ProcessInfo.processInfo.environment
        environment["DARKROOM_REDIS_URL"] = setup.server.url
        environment["DARKROOM_REDIS_PREFIX"] = setup.prefix
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = Pipe()
        try process.run()
        // The follower starts at the end of the stream; jobs keep finishing until it shows one.
        var output = ""
        for round in 0..<100 where !output.contains("succeeded") {
            _ = try await setup.queue.enqueue([Kit.job("j\(round)", batch: "f")])
            try await Kit.finish(setup.queue) { _ in .succeeded(Kit.result()) }
            try await Task.sleep(for: .milliseconds(200))
            output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        }
        #expect(output.contains("succeeded     batch=f job=j"))
        #expect(!output.contains("batchEnqueued"))
        kill(process.processIdentifier, SIGINT)
        let error = (process.standardError as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: error, as: UTF8.self).contains("resume with --since "))
    }

    /// `darkroom arguments…` started against `server` with its standard output and error in files
    /// (read while it runs), and waits on what those files say.
    struct Watched {
        let process: Process
        let outputPath: String
        let errorPath: String

        init(_ arguments: [String], server: RedisTestServer, prefix: String, directory: String) throws {
            outputPath = directory + "/out.txt"
            errorPath = directory + "/err.txt"
            for path in [outputPath, errorPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
            process = Process()
            process.executableURL = URL(fileURLWithPath: try Kit.darkroomBinary)
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["DARKROOM_REDIS_URL"] = server.url
            environment["DARKROOM_REDIS_PREFIX"] = prefix
            process.environment = environment
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
            try process.run()
        }

        var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
        var error: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

        /// Polls (bounded) until `condition` holds; nothing asserts how long it took.
        func until(_ condition: (Watched) -> Bool) async throws {
            for _ in 0..<300 where !condition(self) { try await Task.sleep(for: .milliseconds(50)) }
            #expect(condition(self), "stdout: \(output)\nstderr: \(error)")
        }
    }

    @Test("events --follow --drop-when-behind rides out a Redis restart: every event once, in order, and a note each way")
    func followAcrossRestart() async throws {
        let server = try RedisTestServer(appendOnly: true)
        defer { server.stop() }
        let prefix = Kit.prefix()
        let queue = try Kit.queue(on: server, prefix: prefix)
        let directory = try Kit.makeDirectory("restart")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await queue.publish((0..<3).map { JobEvent.workerOnline(worker: "w\($0)") })
        let follower = try Watched(
            ["events", "--follow", "--since", "0-0", "--drop-when-behind", "1000"], server: server, prefix: prefix, directory: directory)
        try await follower.until { $0.output.contains("w2") }
        server.stop()
        try await follower.until { $0.error.contains("lost the queue") }
        try server.start()
        // A new connection publishes: one to the stopped server could fail mid-XADD.
        try await Kit.queue(on: server, prefix: prefix).publish((3..<6).map { JobEvent.workerOnline(worker: "w\($0)") })
        try await follower.until { $0.output.contains("w5") }
        kill(follower.process.processIdentifier, SIGINT)
        follower.process.waitUntilExit()
        #expect(follower.process.terminationStatus == 0)
        let lines = follower.output.split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines.map { $0.contains("workerOnline") } == Array(repeating: true, count: 6))
        for (index, line) in lines.enumerated() { #expect(line.contains("worker=w\(index)")) }
        #expect(follower.error.contains("the queue is reachable again"))
        #expect(!follower.error.contains("dropped"))
        #expect(follower.error.contains("resume with --since "))
    }

    @Test("wait rides out a Redis restart and ends with the right counts when the last job finishes after it")
    func waitAcrossRestart() async throws {
        let server = try RedisTestServer(appendOnly: true)
        defer { server.stop() }
        let prefix = Kit.prefix()
        let directory = try Kit.makeDirectory("wait-restart")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let queue = try Kit.queue(on: server, prefix: prefix)
        _ = try await queue.enqueue([Kit.job("r1", batch: "r"), Kit.job("r2", batch: "r")])
        let waiter = try Watched(["wait", "r", "--timeout", "120"], server: server, prefix: prefix, directory: directory)
        try await Kit.finish(queue, count: 1) { _ in .succeeded(Kit.result()) }
        // Stopped only once wait is following (blocked in XREAD), so it is an outage it rides out
        // rather than a Redis that was never there.
        let observer = RedisClient(url: try RedisURL(server.url))
        for _ in 0..<300 {
            let clients = try await observer.command(["CLIENT", "LIST"]).string ?? ""
            if clients.contains("cmd=xread") { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        observer.close()
        server.stop()
        try await waiter.until { $0.error.contains("lost the queue") }
        try server.start()
        try await Kit.finish(try Kit.queue(on: server, prefix: prefix)) { _ in .failed(JobError(code: "image.corrupt", message: "truncated")) }
        waiter.process.waitUntilExit()
        #expect(waiter.process.terminationStatus == 1, "\(waiter.error)")
        #expect(waiter.output.hasPrefix("batch r: 2 jobs — 1 succeeded, 1 failed, 0 dead, 0 cancelled"))
        #expect(waiter.output.contains("image.corrupt: truncated"))
        #expect(waiter.error.contains("the queue is reachable again"))
    }

    @Test("events --drop-when-behind without --follow is bad usage")
    func dropNeedsFollow() throws {
        let run = try Kit.run(["events", "--drop-when-behind", "5"], redis: "redis://127.0.0.1:1", prefix: "x")
        #expect(run.status == 2)
        #expect(run.error.contains("--drop-when-behind needs --follow"))
    }
}
