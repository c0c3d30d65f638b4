import Foundation

/// scripts/webhook-receiver.py run with python3: a real receiver process that verifies each
/// delivery's signature and records it as a JSON line, which the test can kill and restart on
/// the same port.
final class WebhookReceiver: @unchecked Sendable {
    // @unchecked: `process` is only touched by the test's own task (start, stop), never concurrently.
    let directory: URL
    private(set) var port = 0
    private var process: Process?

    var recordPath: String { directory.appendingPathComponent("received.jsonl").path }
    var url: String { "http://127.0.0.1:\(port)" }
    var secretPath: String { directory.appendingPathComponent("secret").path }

    /// The secret the receiver verifies with (read on every request).
    func use(secret: String) throws {
        try secret.write(toFile: secretPath, atomically: true, encoding: .utf8)
    }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("webhooks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the receiver (on the previous port when restarting) and waits until it listens.
    func start() throws {
        let portFile = directory.appendingPathComponent("port").path
        try? FileManager.default.removeItem(atPath: portFile)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/webhook-receiver.py").path
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        child.arguments = ["python3", script, "--port", "\(port)", "--record", recordPath, "--port-file", portFile, "--secret-file", secretPath]
        try child.run()
        process = child
        for _ in 0..<200 {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let value = Int(text) {
                port = value
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw CocoaError(.fileReadNoSuchFile)
    }

    /// Kills the receiver (SIGKILL): requests in flight get no answer.
    func stop() {
        guard let child = process else { return }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        process = nil
    }

    /// Every request received so far, in arrival order.
    func received() -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: recordPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// Waits up to `seconds` until `done` holds for what was received.
    func wait(seconds: Double = 20, until done: ([[String: Any]]) -> Bool) async throws -> [[String: Any]] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let records = received()
            if done(records) { return records }
            try await Task.sleep(for: .milliseconds(50))
        }
        return received()
    }
}
