import Foundation
import Testing

@testable import DarkroomCLI

@Suite("Job lists from --from: unreadable standard input")
struct QueueListInputTests {
    /// Runs `darkroom ARGS` with standard input read from `stdinPath` (a directory here: every
    /// read fails with EISDIR) and no Redis at all; returns the exit status and standard error.
    static func runWithStandardInput(_ arguments: [String], stdinPath: String) throws -> (status: Int32, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try WorkerCLITestKit.darkroomBinary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DARKROOM_REDIS_URL"] = "redis://127.0.0.1:1"
        environment["DARKROOM_CACHE_DIR"] = nil
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardInput = try #require(FileHandle(forReadingAtPath: stdinPath))
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let error = errorPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: error, as: UTF8.self))
    }

    @Test("enqueue --from - with an unreadable standard input exits 2 with a message instead of crashing")
    func enqueueUnreadableStandardInput() throws {
        let run = try Self.runWithStandardInput(["enqueue", "--from", "-", "-p", "blur(1)"], stdinPath: "/")
        #expect(run.status == 2, "\(run.error)")
        #expect(run.error.contains("cannot read the job list from standard input"))
    }

    @Test("run --from - with an unreadable standard input exits 2 with a message instead of crashing")
    func runUnreadableStandardInput() throws {
        let out = NSTemporaryDirectory() + "darkroom-listinput-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let run = try Self.runWithStandardInput(["run", "--from", "-", "-p", "blur(1)", "--out", out], stdinPath: "/")
        #expect(run.status == 2, "\(run.error)")
        #expect(run.error.contains("cannot read the job list from standard input"))
    }
}
