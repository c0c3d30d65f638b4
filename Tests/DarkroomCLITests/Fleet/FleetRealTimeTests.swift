import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Foundation
import Testing

/// The fleet end to end, as people run it: a real redis-server, `darkroom worker` processes, and
/// `darkroom enqueue` / `wait` / `events` in another "terminal". Each test checks the promise the
/// README makes: results appear, and every job ends with exactly one terminal event — also when a
/// worker is killed with SIGKILL, when Redis restarts, and when a worker is asked to stop.
@Suite("The fleet, end to end with real processes and Redis", .serialized, .realTime)
struct FleetRealTimeTests {
    @Test("A worker in one terminal and enqueue + wait in the other: the results appear in --out")
    func twoTerminals() async throws {
        let fleet = try FleetKit()
        let sources = try (0..<5).map { try fleet.image("photo\($0).png", seed: $0) }
        let worker = try fleet.worker(name: "w1")
        let enqueue = try await fleet.run(
            ["enqueue"] + sources + [
                "-p", "downsample(40x40)", "--format", "jpeg",
                "--batch", "b", "--out", fleet.path("out/b"),
            ])
        #expect(enqueue.status == 0, "\(enqueue.error)")
        let wait = try await fleet.run(["wait", "b", "--timeout", "60"])
        #expect(wait.status == 0, "\(wait.output)\(wait.error)")
        let files = try FileManager.default.contentsOfDirectory(atPath: fleet.path("out/b")).sorted()
        #expect(files == (0..<5).map { "photo\($0).jpg" })
        let terminal = FleetKit.terminalEvents(try await fleet.events())
        #expect(terminal.count == 5)
        #expect(terminal.values.allSatisfy { $0.count == 1 && $0.first?.type == .succeeded })
        worker.kill(SIGTERM)
        #expect(await worker.waitForExit(timeout: .seconds(30)) == 0, "\(worker.error)")
    }

    @Test("A worker killed with SIGKILL mid-job: another worker finishes its jobs, each with one terminal event")
    func killedWorker() async throws {
        let fleet = try FleetKit()
        let png = try FleetKit.png(width: 80, height: 60)
        // Slow responses keep the first worker's jobs in flight long enough to kill it.
        let server = try TestHTTPServer { _ in
            usleep(700_000)
            return .ok(png, contentType: "image/png")
        }
        let sources = (0..<6).map { server.url("/img\($0).png") }
        let enqueue = try await fleet.run(["enqueue"] + sources + ["-p", "resize(30x30)", "--batch", "crash"])
        #expect(enqueue.status == 0, "\(enqueue.error)")
        let doomed = try fleet.worker(name: "doomed", extra: ["--allow-private-network", "--visibility-timeout", "2"])
        // Two jobs in hand, their downloads under way (`started` comes when a job's CPU work starts).
        #expect(await fleet.eventually { try await fleet.pendingJobs() >= 2 })
        doomed.kill(SIGKILL)
        _ = await doomed.waitForExit(timeout: .seconds(10))
        let survivor = try fleet.worker(name: "survivor", extra: ["--allow-private-network", "--visibility-timeout", "2"])
        let wait = try await fleet.run(["wait", "crash", "--timeout", "90"])
        #expect(wait.status == 0, "\(wait.output)\(wait.error)")
        let events = try await fleet.events()
        let terminal = FleetKit.terminalEvents(events)
        #expect(terminal.count == 6)
        #expect(terminal.values.allSatisfy { $0.count == 1 && $0.first?.type == .succeeded })
        // The jobs the killed worker held were finished by the survivor on their second delivery.
        let redelivered = terminal.values.compactMap(\.first).filter { ($0.attempt ?? 0) >= 2 }
        #expect(redelivered.count >= 2)
        #expect(redelivered.allSatisfy { $0.worker == "survivor" })
        #expect(!events.contains { $0.isTerminal && $0.worker == "doomed" })
        survivor.kill(SIGKILL)
    }

    @Test("Redis restarts mid-run: the worker reconnects and every job still ends exactly once")
    func redisRestart() async throws {
        let fleet = try FleetKit(appendOnly: true)
        let sources = try (0..<12).map { try fleet.image("r\($0).png", width: 400, height: 300, seed: $0) }
        let worker = try fleet.worker(name: "w1", concurrency: 1)
        let enqueue = try await fleet.run(["enqueue"] + sources + ["-p", "blur(4)|>resize(200x150)", "--batch", "restart"])
        #expect(enqueue.status == 0, "\(enqueue.error)")
        try await fleet.waitForEvents("a first result") { $0.contains { $0.type == .succeeded } }
        fleet.redis.stop()
        try await Task.sleep(for: .seconds(1))
        try fleet.redis.start()
        let wait = try await fleet.run(["wait", "restart", "--timeout", "90"])
        #expect(wait.status == 0, "\(wait.output)\(wait.error)\n\(worker.error.suffix(2000))")
        let terminal = FleetKit.terminalEvents(try await fleet.events())
        #expect(terminal.count == 12)
        #expect(terminal.values.allSatisfy { $0.count == 1 })
        worker.kill(SIGKILL)
    }

    @Test("SIGTERM during a job: the worker finishes it, goes offline and exits 0")
    func gracefulShutdown() async throws {
        let fleet = try FleetKit()
        let png = try FleetKit.png(width: 80, height: 60)
        let server = try TestHTTPServer { _ in
            usleep(1_500_000)
            return .ok(png, contentType: "image/png")
        }
        let worker = try fleet.worker(name: "w1", concurrency: 1, extra: ["--allow-private-network"])
        let enqueue = try await fleet.run([
            "enqueue", server.url("/slow.png"), server.url("/later.png"),
            "-p", "resize(30x30)", "--batch", "term",
        ])
        #expect(enqueue.status == 0, "\(enqueue.error)")
        // The first job in hand, its download under way (`started` comes when its CPU work starts).
        #expect(await fleet.eventually { try await fleet.pendingJobs() == 1 })
        worker.kill(SIGTERM)
        #expect(await worker.waitForExit(timeout: .seconds(30)) == 0, "\(worker.error)")
        let events = try await fleet.events()
        let started = events.filter { $0.type == .started }
        #expect(started.count == 1)
        let first = try #require(started.first?.job)
        #expect(FleetKit.terminalEvents(events)[first]?.map(\.type) == [.succeeded])
        #expect(events.last?.type == .workerOffline)
        // The job it had not started is still queued for the next worker.
        let progress = try #require(try await Self.progress(fleet, "term"))
        #expect(progress.succeeded == 1)
        #expect(progress.remaining == 1)
    }

    @Test("A job that keeps failing transiently is dead after maxAttempts, with its error")
    func poisonJob() async throws {
        let fleet = try FleetKit()
        let server = try TestHTTPServer { _ in .status(503, "busy") }
        let worker = try fleet.worker(
            name: "w1",
            extra: [
                "--allow-private-network", "--max-attempts", "3",
                "--retry-base", "0.05",
            ])
        let enqueue = try await fleet.run(["enqueue", server.url("/poison.png"), "-p", "resize(30x30)", "--batch", "poison"])
        #expect(enqueue.status == 0, "\(enqueue.error)")
        let wait = try await fleet.run(["wait", "poison", "--timeout", "60"])
        #expect(wait.status == 1, "\(wait.output)\(wait.error)")
        let events = try await fleet.events()
        let failed = events.filter { $0.type == .failed }
        #expect(failed.map(\.willRetry) == [true, true])
        let dead = events.filter { $0.type == .dead }
        #expect(dead.count == 1)
        #expect(dead.first?.attempt == 3)
        #expect(dead.first?.error?.code.hasPrefix("source.") == true)
        let dlq = try await fleet.run(["dlq", "list", "--json"])
        #expect(dlq.output.contains("poison.png"))
        worker.kill(SIGKILL)
    }

    @Test("Two workers given the same work compute it once: one download, one miss, the other waits for the shared result")
    func oneComputationAcrossTheFleet() async throws {
        let fleet = try FleetKit()
        let png = try FleetKit.png(width: 120, height: 90)
        let server = try TestHTTPServer { _ in
            usleep(600_000)
            return .ok(png, contentType: "image/png")
        }
        let first = try fleet.worker(name: "first", concurrency: 1, extra: ["--allow-private-network"])
        let second = try fleet.worker(name: "second", concurrency: 1, extra: ["--allow-private-network"])
        try await fleet.waitForEvents("both workers online") { events in
            Set(events.filter { $0.type == .workerOnline }.compactMap(\.worker)) == ["first", "second"]
        }
        // Two jobs (two ids) for one source and one chain: the same cache key.
        let list = fleet.path("same.jsonl")
        let line = { (id: String) in "{\"source\": \"\(server.url("/same.png"))\", \"id\": \"\(id)\"}" }
        try (line("one") + "\n" + line("two") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let enqueue = try await fleet.run(["enqueue", "--from", list, "-p", "resize(40x30)", "--batch", "same"])
        #expect(enqueue.status == 0, "\(enqueue.error)")
        let wait = try await fleet.run(["wait", "same", "--timeout", "60"])
        #expect(wait.status == 0, "\(wait.output)\(wait.error)")
        let succeeded = try await fleet.events().filter { $0.type == .succeeded }
        #expect(Set(succeeded.compactMap(\.worker)) == ["first", "second"])
        #expect(succeeded.compactMap(\.result?.cache).sorted { $0.rawValue < $1.rawValue } == [.disk, .miss])
        #expect(server.requestCount("/same.png") == 1)
        first.kill(SIGKILL)
        second.kill(SIGKILL)
    }

    static func progress(_ fleet: FleetKit, _ batch: String) async throws -> BatchProgress? {
        let client = RedisClient(url: try RedisURL(fleet.redis.url))
        defer { client.close() }
        return try await RedisStreamsQueue(client: client).batchProgress(batch)
    }
}
