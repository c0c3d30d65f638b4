import Foundation
import Testing

/// `run` takes the same limit flags as `process` (one `LimitOptions` group) and hands them to
/// its embedded worker's pipeline: the same input fails with the same code and message.
@Suite("darkroom run: the limit flags take effect as they do for process")
struct RunLimitTests {
    /// What `darkroom COMMAND a.jpg -p CHAIN --out OUT FLAGS` printed and how it exited.
    static func outcome(_ command: String, _ source: String, chain: String, flags: [String], in dir: String)
        async throws -> WorkerCLITestKit.Run
    {
        try await WorkerCLITestKit.run([command, source, "-p", chain, "--out", "out-\(command)"] + flags, in: dir)
    }

    /// The reported error after the source's name (`process` names it as typed, `run` by its absolute path).
    static func reason(_ stderr: String, source: String) -> String? {
        stderr.split(separator: "\n").first { $0.contains("\(source): ") }
            .map { String($0[$0.range(of: "\(source): ")!.upperBound...]) }
    }

    @Test(
        "Given a limit flag the source breaks, when run and process handle it, then both fail it with the same code and message",
        arguments: [
            (["--max-pixels", "0.001"], "downsample(10x10)", "image.too-large"),
            (["--max-output-dimension", "50"], "resize(100x100)", "output.too-large"),
            (["--max-pixels", "0.01", "--max-output-pixels", "0.001"], "resize(2000x2000, mode: stretch)", "image.too-large"),
        ])
    func limitsMatchProcess(flags: [String], chain: String, code: String) async throws {
        let dir = try WorkerCLITestKit.makeDirectory("run-limits")
        defer { WorkerCLITestKit.remove(dir) }
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(.jpeg, width: 120, height: 80), to: "\(dir)/a.jpg")

        let process = try await Self.outcome("process", "a.jpg", chain: chain, flags: flags, in: dir)
        let run = try await Self.outcome("run", "a.jpg", chain: chain, flags: flags, in: dir)
        #expect(process.status == 1 && run.status == 1, "process: \(process.error)\nrun: \(run.error)")
        let processReason = try #require(Self.reason(process.error, source: "a.jpg"), "\(process.error)")
        #expect(processReason.hasSuffix("[\(code)]"))
        #expect(Self.reason(run.error, source: "\(dir)/a.jpg") == processReason, "\(run.error)")

        // Without the flag the same job succeeds: the refusal came from the flag.
        let unlimited = try await Self.outcome("run", "a.jpg", chain: chain, flags: [], in: dir)
        #expect(unlimited.status == 0, "\(unlimited.error)")
    }

    @Test("Given resize(20000x20000), then the message names the limit that refused (100 MP per image) and its flag, not the 65535 px bitmap side")
    func limitMessagesNameTheirFlag() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("run-limits")
        defer { WorkerCLITestKit.remove(dir) }
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(.jpeg, width: 120, height: 80), to: "\(dir)/a.jpg")
        let chain = "resize(20000x20000, mode: stretch)"
        let first = try await Self.outcome("process", "a.jpg", chain: chain, flags: [], in: dir)
        let reason = try #require(Self.reason(first.error, source: "a.jpg"), "\(first.error)")
        #expect(reason.contains("20000x20000 = 400.0 MP, over the 100 MP per image limit (raise it with --max-output-pixels)"), "\(reason)")
        #expect(!reason.contains("65535"))
    }

    @Test("Given a truncated JPEG, when run without --lenient it fails as process does, and with --lenient both accept it")
    func lenientMatchesProcess() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("run-limits")
        defer { WorkerCLITestKit.remove(dir) }
        let jpeg = try WorkerCLITestKit.image(.jpeg, width: 120, height: 80)
        try WorkerCLITestKit.write(Array(jpeg.prefix(jpeg.count * 3 / 4)), to: "\(dir)/cut.jpg")

        let process = try await Self.outcome("process", "cut.jpg", chain: "downsample(40x40)", flags: [], in: dir)
        let run = try await Self.outcome("run", "cut.jpg", chain: "downsample(40x40)", flags: [], in: dir)
        #expect(process.status == 1 && run.status == 1)
        let processReason = try #require(Self.reason(process.error, source: "cut.jpg"), "\(process.error)")
        #expect(processReason.hasSuffix("[image.truncated]"))
        #expect(Self.reason(run.error, source: "\(dir)/cut.jpg") == processReason, "\(run.error)")

        let lenientProcess = try await Self.outcome("process", "cut.jpg", chain: "downsample(40x40)", flags: ["--lenient"], in: dir)
        let lenientRun = try await Self.outcome("run", "cut.jpg", chain: "downsample(40x40)", flags: ["--lenient"], in: dir)
        #expect(lenientProcess.status == 0, "\(lenientProcess.error)")
        #expect(lenientRun.status == 0, "\(lenientRun.error)")
        #expect(
            try WorkerCLITestKit.decode("\(dir)/out-run/cut.jpg").bitmap.size
                == WorkerCLITestKit.decode("\(dir)/out-process/cut.jpg").bitmap.size)
    }

    @Test(
        "Out-of-range limit flags are usage errors with process's message, before any job runs",
        arguments: [
            (["--max-pixels", "inf"], "--max-pixels must be 0.001…1000 megapixels (got inf)"),
            (["--max-output-pixels", "0"], "--max-output-pixels must be 0.001…1000 megapixels (got 0.0)"),
            (["--max-output-dimension", "0"], "--max-output-dimension must be 1…65535 pixels (got 0)"),
        ])
    func badLimits(flags: [String], message: String) async throws {
        let dir = try WorkerCLITestKit.makeDirectory("run-limits")
        defer { WorkerCLITestKit.remove(dir) }
        try WorkerCLITestKit.write(try WorkerCLITestKit.image(), to: "\(dir)/a.jpg")

        for command in ["process", "run"] {
            let result = try await Self.outcome(command, "a.jpg", chain: "blur(1)", flags: flags, in: dir)
            #expect(result.status == 2, "\(command): \(result.error)")
            #expect(result.error == "darkroom: \(message)\n", "\(command)")
            #expect(!FileManager.default.fileExists(atPath: "\(dir)/out-\(command)/a.jpg"))
        }
    }
}
