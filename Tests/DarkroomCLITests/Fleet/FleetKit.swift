import DarkroomQueue
import DarkroomRedis
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

/// Runs a small Darkroom fleet for the end-to-end tests: a real redis-server, real `darkroom`
/// processes (workers, enqueue, wait, events) and a scratch directory with images.
///
/// Process output goes to files, not pipes, so a chatty long-running worker can never block on a
/// full pipe while the test waits for something else.
final class FleetKit: Sendable {
    let redis: RedisTestServer
    let root: String

    /// A fleet waits on real time (processes starting, polling, stopping): the test must be
    /// marked `.realTime`.
    init(appendOnly: Bool = false) throws {
        RealTime.require("A fleet of real darkroom processes")
        redis = try RedisTestServer(appendOnly: appendOnly)
        root = NSTemporaryDirectory() + "darkroom-fleet-\(UUID().uuidString)"
        for folder in ["images", "out", "cache", "logs"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func path(_ relative: String) -> String { root + "/" + relative }

    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DARKROOM_REDIS_URL"] = redis.url
        env["DARKROOM_CACHE_DIR"] = nil
        return env
    }

    // MARK: Images

    /// Writes a `width`×`height` PNG gradient to `images/name` and returns its path.
    @discardableResult
    func image(_ name: String, width: Int = 96, height: Int = 64, seed: Int = 0) throws -> String {
        try Data(Self.png(width: width, height: height, seed: seed)).write(to: URL(fileURLWithPath: path("images/" + name)))
        return path("images/" + name)
    }

    static func png(width: Int, height: Int, seed: Int = 0) throws -> [UInt8] {
        try TestImages.gradient(.png, width: width, height: height, tint: UInt8(truncatingIfNeeded: 40 + seed * 13))
    }

    // MARK: Processes

    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// A running `darkroom` process whose output goes to `logs/<label>.out|.err`.
    final class Child: Sendable {
        let process: Process
        let outputPath: String
        let errorPath: String

        init(process: Process, outputPath: String, errorPath: String) {
            self.process = process
            self.outputPath = outputPath
            self.errorPath = errorPath
        }

        var pid: Int32 { process.processIdentifier }
        var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
        var error: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

        func kill(_ signal: Int32) {
            RealTime.require("Signalling a running darkroom process")
            Foundation.kill(process.processIdentifier, signal)
        }

        /// Waits up to `timeout` for the process to exit; returns its status, or nil if it is still running.
        func waitForExit(timeout: Duration) async -> Int32? {
            let deadline = ContinuousClock.now + timeout
            while process.isRunning {
                if ContinuousClock.now >= deadline { return nil }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return process.terminationStatus
        }

        deinit { if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) } }
    }

    private let counter = Counter()

    /// Starts `darkroom arguments…` (or another program built beside it, `executable`).
    func start(_ arguments: [String], label: String, executable: String? = nil) throws -> Child {
        let number = counter.next()
        let outputPath = path("logs/\(number)-\(label).out")
        let errorPath = path("logs/\(number)-\(label).err")
        FileManager.default.createFile(atPath: outputPath, contents: nil)
        FileManager.default.createFile(atPath: errorPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable ?? Self.darkroomBinary)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
        return Child(process: process, outputPath: outputPath, errorPath: errorPath)
    }

    /// Runs `darkroom arguments…` to completion (at most `timeout`, then it is killed and the test fails).
    func run(_ arguments: [String], timeout: Duration = .seconds(120), executable: String? = nil) async throws -> Run {
        let label = executable.map { URL(fileURLWithPath: $0).lastPathComponent } ?? arguments.first ?? "run"
        let child = try start(arguments, label: label, executable: executable)
        guard let status = await child.waitForExit(timeout: timeout) else {
            child.kill(SIGKILL)
            Issue.record("darkroom \(arguments.joined(separator: " ")) did not finish within \(timeout)")
            return Run(status: -1, output: child.output, error: child.error)
        }
        return Run(status: status, output: child.output, error: child.error)
    }

    /// Starts a worker with a cache, file sources from `images/`, outputs under `out/`, and `extra` flags.
    func worker(name: String, concurrency: Int = 2, extra: [String] = []) throws -> Child {
        try start(
            [
                "worker", "--name", name, "--concurrency", String(concurrency), "--cache", path("cache"),
                "--allow-file-root", path("images"), "--allow-output-root", path("out"),
            ] + extra, label: "worker-" + name)
    }

    // MARK: Events

    /// Every retained event, read straight from Redis through the driver.
    func events() async throws -> [JobEvent] { try await envelopes().map(\.event) }

    /// Every retained event with its stream id, read straight from Redis through the driver.
    func envelopes() async throws -> [EventEnvelope] {
        let client = RedisClient(url: try RedisURL(redis.url))
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client)
        var cursor = EventCursor.start
        var envelopes: [EventEnvelope] = []
        while true {
            let page = try await queue.readEvents(after: cursor, limit: 1000, wait: .zero)
            guard let last = page.last else { return envelopes }
            envelopes += page
            cursor = last.cursor
        }
    }

    /// Jobs delivered to a worker and not yet finished, read straight from Redis.
    func pendingJobs() async throws -> Int {
        let client = RedisClient(url: try RedisURL(redis.url))
        defer { client.close() }
        return try await RedisStreamsQueue(client: client).counts().pending
    }

    /// Polls `condition` every 50 ms for up to `timeout`; true once it held (a throw counts as not yet).
    func eventually(timeout: Duration = .seconds(60), _ condition: () async throws -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if (try? await condition()) == true { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Polls the events until `condition` holds for them (or `timeout` passes: then the test fails).
    @discardableResult
    func waitForEvents(
        timeout: Duration = .seconds(60), _ what: String,
        until condition: ([JobEvent]) -> Bool
    ) async throws -> [JobEvent] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let events = try await events()
            if condition(events) { return events }
            if ContinuousClock.now >= deadline {
                Issue.record("timed out waiting for \(what); events: \(events.map { "\($0.type.rawValue) \($0.job?.rawValue ?? "")" })")
                return events
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Terminal events per job, for the exactly-once checks.
    static func terminalEvents(_ events: [JobEvent]) -> [JobID: [JobEvent]] {
        var byJob: [JobID: [JobEvent]] = [:]
        for event in events where event.isTerminal {
            if let job = event.job { byJob[job, default: []].append(event) }
        }
        return byJob
    }

    // MARK: The darkroom binary

    /// The `darkroom` executable SwiftPM built next to this test bundle.
    static var darkroomBinary: String { get throws { try DarkroomBinary.path } }

    struct FleetFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    final class Counter: Sendable {
        private let value = Locked(0)
        func next() -> Int {
            value.withLock {
                $0 += 1
                return $0
            }
        }
    }
}
