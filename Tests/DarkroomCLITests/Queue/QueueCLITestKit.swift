import DarkroomQueue
import DarkroomRedis
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomCLI

/// Helpers for the queue-command tests: jobs and results, a worker that finishes jobs by hand (from
/// `QueueTestKit`), and running the built `darkroom` binary against a real Redis.
enum QueueCLITestKit {
    // Jobs, results and the hand-driven worker are shared with the client library's tests.
    static func job(_ id: String, batch: String = "b1", source: String = "/data/a.jpg", chain: String = "blur(2)") -> Job {
        QueueTestKit.job(id, batch: batch, source: source, chain: chain)
    }

    static func result(output: String? = "/cache/a", bytes: Int = 1234) -> JobResult {
        QueueTestKit.result(output: output, bytes: bytes)
    }

    @discardableResult
    static func finish(
        _ queue: any JobQueueDriver, count: Int = 1000, consumer: String = "test-worker",
        outcome: (Job) -> JobOutcome?
    ) async throws -> Int {
        try await QueueTestKit.finish(queue, count: count, consumer: consumer, outcome: outcome)
    }

    /// A fresh empty directory.
    static func makeDirectory(_ label: String) throws -> String {
        let path = NSTemporaryDirectory() + "darkroom-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    // MARK: Redis and the binary

    /// A queue on `server` with its own key prefix, as the test process's "worker".
    static func queue(on server: RedisTestServer, prefix: String) throws -> RedisStreamsQueue {
        RedisStreamsQueue(client: RedisClient(url: try RedisURL(server.url)), keyPrefix: prefix)
    }

    /// The `darkroom` executable SwiftPM built next to this test bundle.
    static var darkroomBinary: String { get throws { try DarkroomBinary.path } }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The outcome of one `darkroom` run.
    struct Run {
        var status: Int32
        var output: String
        var error: String

        var lines: [String] { output.split(separator: "\n").map(String.init) }
    }

    /// Starts `darkroom arguments…` with `DARKROOM_REDIS_URL` pointing at `redis` (when given),
    /// the prefix in `DARKROOM_REDIS_PREFIX`, and `input` on standard input.
    static func start(
        _ arguments: [String], redis: String?, prefix: String?, input: String? = nil,
        directory: String? = nil, environment: [String: String?] = [:]
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try darkroomBinary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["DARKROOM_REDIS_URL"] = redis
        env["DARKROOM_REDIS_PREFIX"] = prefix
        env["DARKROOM_REDIS_PASSWORD_FILE"] = nil
        for (name, value) in environment { env[name] = value }
        process.environment = env
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        return process
    }

    /// Waits for `process` and collects its output.
    static func finish(_ process: Process) -> Run {
        // Both pipes are drained concurrently so a chatty child cannot block on a full pipe.
        let errorData = Locked<Data>(Data())
        let group = DispatchGroup()
        if let pipe = process.standardError as? Pipe {
            let handle = pipe.fileHandleForReading
            DispatchQueue.global().async(group: group) {
                let data = handle.readDataToEndOfFile()
                errorData.withLock { $0 = data }
            }
        }
        let output = (process.standardOutput as? Pipe)?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        group.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
            error: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }

    /// Runs `darkroom arguments…` to completion.
    static func run(
        _ arguments: [String], redis: String?, prefix: String?, input: String? = nil,
        directory: String? = nil, environment: [String: String?] = [:]
    ) throws -> Run {
        finish(try start(arguments, redis: redis, prefix: prefix, input: input, directory: directory, environment: environment))
    }

    /// Every event retained on `queue`, oldest first.
    static func events(_ queue: any JobQueueDriver) async throws -> [JobEvent] {
        var cursor = EventCursor.start
        var events: [JobEvent] = []
        while true {
            let page = try await queue.readEvents(after: cursor, limit: 1000, wait: .zero)
            guard let last = page.last else { return events }
            cursor = last.cursor
            events += page.map(\.event)
        }
    }

    /// The job ids `enqueue --print-ids` printed, by source (its `ID<TAB>SOURCE` lines).
    static func ids(_ run: Run) throws -> [String: String] {
        guard run.status == 0 else { throw Failure("enqueue failed: \(run.error)") }
        var ids: [String: String] = [:]
        for line in run.lines {
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            if fields.count == 2 { ids[fields[1]] = fields[0] }
        }
        return ids
    }

    /// A unique key prefix per test, so tests can share one server.
    static func prefix() -> String { "t" + String(UUID().uuidString.prefix(8)).lowercased() }
}
