import DarkroomTestSupport
import Foundation
import Glibc
import Testing

@Suite("darkroom health and worker --heartbeat-file, as real processes against a real redis-server", .realTime)
struct HealthCommandRealTimeTests {
    @Test("A running worker's heartbeat file, Redis and writable directories pass; the file goes when the worker stops")
    func healthyWorkerPasses() async throws {
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let dir = try WorkerCLITestKit.makeDirectory("health")
        defer { WorkerCLITestKit.remove(dir) }
        try FileManager.default.createDirectory(atPath: "\(dir)/cache", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(dir)/out", withIntermediateDirectories: true)

        let worker = try WorkerCLITestKit.Running(
            ["worker", "--redis", redis.url, "--name", "health-w", "--heartbeat-file", "alive", "--log-level", "notice"],
            directory: dir)
        #expect(await WorkerCLITestKit.eventually(timeout: .seconds(30)) { FileManager.default.fileExists(atPath: "\(dir)/alive") })

        let readiness = try await WorkerCLITestKit.run(
            ["health", "--redis", redis.url, "--cache", "cache", "--writable", "out"], in: dir)
        #expect(readiness.status == 0, "\(readiness.output) \(readiness.error)")
        #expect(readiness.output.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count == 3, "\(readiness.output)")
        let liveness = try await WorkerCLITestKit.run(["health", "--no-redis", "--heartbeat-file", "alive", "--max-age", "60"], in: dir)
        #expect(liveness.status == 0, "\(liveness.output) \(liveness.error)")
        #expect(liveness.output.hasPrefix("ok   heartbeat "), "\(liveness.output)")
        // The probe leaves nothing behind in the directories it wrote to.
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").isEmpty)

        worker.signal(SIGTERM)
        let stopped = await worker.finish(timeout: .seconds(60))
        #expect(stopped.status == 0, "\(stopped.error)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/alive"))
    }

    @Test("Unreachable Redis, a missing directory and a stale heartbeat each fail with a line naming what and why; exit 1")
    func failuresAreNamed() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("health")
        defer { WorkerCLITestKit.remove(dir) }
        // A heartbeat last touched two minutes ago.
        _ = FileManager.default.createFile(atPath: "\(dir)/stale", contents: Data("x\n".utf8))
        var times = [timeval(tv_sec: time(nil) - 120, tv_usec: 0), timeval(tv_sec: time(nil) - 120, tv_usec: 0)]
        #expect(utimes("\(dir)/stale", &times) == 0)

        let run = try await WorkerCLITestKit.run(
            [
                "health", "--redis", "redis://127.0.0.1:1", "--timeout", "1", "--writable", "missing",
                "--heartbeat-file", "stale", "--max-age", "60",
            ], in: dir)
        #expect(run.status == 1, "\(run.output) \(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(run.output)")
        #expect(lines.allSatisfy { $0.hasPrefix("FAIL ") }, "\(run.output)")
        #expect(lines.contains { $0.contains("redis redis://127.0.0.1:1") })
        #expect(lines.contains { $0.contains("directory missing: not a directory") })
        #expect(lines.contains { $0.contains("heartbeat stale: last touched 12") && $0.contains("(more than 60 s)") })
    }

    @Test("--no-redis with nothing else to check is a usage error (exit 2)")
    func nothingToCheckIsUsage() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("health")
        defer { WorkerCLITestKit.remove(dir) }
        let run = try await WorkerCLITestKit.run(["health", "--no-redis"], in: dir)
        #expect(run.status == 2)
        #expect(run.error.contains("--no-redis leaves nothing to check"), "\(run.error)")
    }
}
