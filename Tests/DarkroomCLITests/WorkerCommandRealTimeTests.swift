import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Foundation
import Glibc
import Synchronization
import Testing

@Suite("darkroom worker as a real process against a real redis-server", .realTime)
struct WorkerCommandRealTimeTests {
    /// Redis, a queue client on it, and the `--redis` flag for worker processes.
    struct Fleet {
        let redis: RedisTestServer
        let client: RedisClient
        let queue: RedisStreamsQueue
        let directory: String

        init() throws {
            redis = try RedisTestServer()
            client = RedisClient(url: try RedisURL(redis.url))
            queue = RedisStreamsQueue(client: client)
            directory = try WorkerCLITestKit.makeDirectory("worker-cli")
        }

        /// Starts `darkroom worker` with test-friendly flags plus `extra`.
        func worker(_ name: String, _ extra: [String] = []) throws -> WorkerCLITestKit.Running {
            try WorkerCLITestKit.Running(
                ["worker", "--redis", redis.url, "--name", name, "--log-level", "notice"] + extra,
                directory: directory)
        }

        func job(_ source: String, batch: String = "b") -> Job {
            Job(batch: batch, source: source, chain: "downsample(40x40)")
        }

        func stop() {
            client.close()
            redis.stop()
            WorkerCLITestKit.remove(directory)
        }
    }

    /// An HTTP source whose first `slow` answers take `delay`; later ones are immediate.
    static func source(slow: Int, delay: useconds_t) throws -> TestHTTPServer {
        let jpeg = try WorkerCLITestKit.image()
        let served = Atomic<Int>(0)
        return try TestHTTPServer { _ in
            if served.add(1, ordering: .relaxed).newValue <= slow { usleep(delay) }
            return .ok(jpeg)
        }
    }

    @Test("SIGTERM during a job: the worker finishes it, goes offline and exits 0")
    func sigtermFinishesJobInHand() async throws {
        let fleet = try Fleet()
        defer { fleet.stop() }
        let source = try Self.source(slow: 1, delay: 1_500_000)
        defer { source.stop() }
        let worker = try fleet.worker("w-term", ["--allow-source", source.origin + "/", "--concurrency", "1"])

        _ = try await fleet.queue.enqueue([fleet.job(source.url("/slow.jpg"))])
        #expect(
            await WorkerCLITestKit.eventually {
                try await WorkerCLITestKit.events(fleet.queue).contains { $0.type == .started }
            })
        worker.signal(SIGTERM)
        let run = await worker.finish()
        #expect(run.status == 0, "stderr: \(run.error)")

        let events = try await WorkerCLITestKit.events(fleet.queue)
        #expect(events.filter(\.isTerminal).map(\.type) == [.succeeded])
        #expect(events.last?.type == .workerOffline)
        #expect(try await fleet.queue.liveWorkers().isEmpty)
    }

    @Test("kill -9 in the middle of jobs: another worker reclaims them after the visibility timeout, one terminal event each")
    func crashedWorkersJobsAreFinishedByAnother() async throws {
        let fleet = try Fleet()
        defer { fleet.stop() }
        // The crashed worker's two downloads hang; the rescuer's are immediate.
        let source = try Self.source(slow: 2, delay: 20_000_000)
        defer { source.stop() }
        let flags = ["--allow-source", source.origin + "/", "--concurrency", "2", "--visibility-timeout", "1"]
        let doomed = try fleet.worker("doomed", flags)
        _ = try await fleet.queue.enqueue([fleet.job(source.url("/a.jpg")), fleet.job(source.url("/b.jpg"))])
        // In the middle of both jobs: their downloads have reached the server and hang there.
        #expect(await WorkerCLITestKit.eventually { source.requestCount("/a.jpg") + source.requestCount("/b.jpg") == 2 })
        doomed.signal(SIGKILL)
        _ = await doomed.finish()

        let rescuer = try fleet.worker("rescuer", flags)
        #expect(await WorkerCLITestKit.eventually { try await fleet.queue.batchProgress("b")?.isComplete == true })
        rescuer.signal(SIGTERM)
        let run = await rescuer.finish()
        #expect(run.status == 0, "stderr: \(run.error)")

        let terminal = try await WorkerCLITestKit.events(fleet.queue).filter(\.isTerminal)
        #expect(terminal.count == 2)
        #expect(Set(terminal.compactMap(\.job)).count == 2)
        #expect(
            terminal.allSatisfy { $0.type == .succeeded && $0.worker == "rescuer" && $0.attempt == 2 },
            "terminal events: \(terminal.map { "\($0.type.rawValue) \($0.worker ?? "-") attempt \($0.attempt ?? 0) \($0.error.map(String.init(describing:)) ?? "")" })"
        )
    }

    @Test("An unreachable Redis is reported on standard error and retried; the worker keeps running until SIGTERM, then exits 0")
    func unreachableRedisIsRetried() async throws {
        let directory = try WorkerCLITestKit.makeDirectory("worker-cli")
        defer { WorkerCLITestKit.remove(directory) }
        // A port nobody listens on.
        let (fd, port) = try TestHTTPServer.openListener(on: "127.0.0.1")
        close(fd)
        let worker = try WorkerCLITestKit.Running(
            ["worker", "--redis", "redis://127.0.0.1:\(port)", "--name", "lonely"],
            directory: directory)
        #expect(await WorkerCLITestKit.eventually { worker.error.contains("cannot reach the queue") })
        #expect(worker.error.contains("cannot connect to Redis at 127.0.0.1:\(port)"))
        #expect(worker.process.isRunning)
        worker.signal(SIGTERM)
        let run = await worker.finish()
        #expect(run.status == 0, "stderr: \(run.error)")
    }

    @Test("Bad worker flags exit 2 before anything runs")
    func badFlags() async throws {
        let directory = try WorkerCLITestKit.makeDirectory("worker-cli")
        defer { WorkerCLITestKit.remove(directory) }
        let missingRoot = try await WorkerCLITestKit.run(["worker", "--allow-output-root", "no/such/dir"], in: directory)
        #expect(missingRoot.status == 2 && missingRoot.error.contains("--allow-output-root"))
        let badTimeout = try await WorkerCLITestKit.run(["worker", "--visibility-timeout", "0"], in: directory)
        #expect(badTimeout.status == 2 && badTimeout.error.contains("--visibility-timeout"))
    }
}
