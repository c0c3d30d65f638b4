import DarkroomCodecs
import DarkroomCore
import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Glibc
import Testing

/// The built `darkroom` binary as a real process, scratch directories and images, for the `run`
/// and `worker` command tests.
enum WorkerCLITestKit {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The `darkroom` executable SwiftPM built next to this test bundle.
    static var darkroomBinary: String { get throws { try DarkroomBinary.path } }

    static func makeDirectory(_ label: String) throws -> String { try TestImages.makeDirectory(label) }

    static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    /// A `width`×`height` gradient encoded as `format`.
    static func image(_ format: ImageFormat = .jpeg, width: Int = 120, height: Int = 80, tint: UInt8 = 90) throws -> [UInt8] {
        try TestImages.gradient(format, width: width, height: height, tint: tint)
    }

    @discardableResult
    static func write(_ bytes: [UInt8], to path: String) throws -> String {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func decode(_ path: String) throws -> DecodedImage {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return try CoderRegistry.standard.decode(EncodedImage(bytes: bytes, sourceName: path))
    }

    /// A finished run of `darkroom`.
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// A running `darkroom` whose standard output and error go to files, so they can be read while
    /// it runs (a pipe nobody drains could block it).
    final class Running {
        let process: Process
        let outputPath: String
        let errorPath: String

        init(_ arguments: [String], environment: [String: String] = [:], directory: String) throws {
            outputPath = directory + "/stdout-\(UUID().uuidString).txt"
            errorPath = directory + "/stderr-\(UUID().uuidString).txt"
            _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
            _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
            process = Process()
            process.executableURL = URL(fileURLWithPath: try WorkerCLITestKit.darkroomBinary)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            var env = ProcessInfo.processInfo.environment
            env["DARKROOM_CACHE_DIR"] = nil
            env["DARKROOM_REDIS_URL"] = nil
            for (name, value) in environment { env[name] = value }
            process.environment = env
            process.standardOutput = FileHandle(forWritingAtPath: outputPath)
            process.standardError = FileHandle(forWritingAtPath: errorPath)
            try process.run()
        }

        var pid: Int32 { process.processIdentifier }
        var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
        var error: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

        func signal(_ number: Int32) {
            RealTime.require("Signalling a running darkroom process")
            kill(process.processIdentifier, number)
        }

        /// Waits for the process to exit (killing it after `timeout`) and returns its outcome.
        func finish(timeout: Duration = .seconds(120)) async -> Run {
            let deadline = ContinuousClock.now + timeout
            while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return Run(status: -1, output: output, error: error + "\n(killed after the test's timeout)")
            }
            process.waitUntilExit()
            return Run(status: process.terminationStatus, output: output, error: error)
        }
    }

    /// Runs `darkroom arguments…` in `directory` to completion.
    static func run(_ arguments: [String], in directory: String, environment: [String: String] = [:]) async throws -> Run {
        await (try Running(arguments, environment: environment, directory: directory)).finish()
    }

    /// Polls `condition` every 20 ms for up to `timeout`.
    static func eventually(timeout: Duration = .seconds(60), _ condition: () async throws -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if (try? await condition()) == true { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return (try? await condition()) == true
    }

    /// Every retained event of a queue.
    static func events(_ queue: any JobQueueDriver) async throws -> [JobEvent] {
        var cursor = EventCursor.start
        var all: [JobEvent] = []
        while true {
            let page = try await queue.readEvents(after: cursor, limit: 1000, wait: .zero)
            guard let last = page.last else { return all }
            all += page.map(\.event)
            cursor = last.cursor
        }
    }
}
