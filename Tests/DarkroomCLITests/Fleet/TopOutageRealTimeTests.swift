import DarkroomTestSupport
import Foundation
import Testing

/// `darkroom top` against a real redis-server that stops and starts again: it says Redis is
/// unreachable (with the time of its last good read) instead of freezing, and recovers.
@Suite("darkroom top across a Redis outage", .serialized, .realTime)
struct TopOutageRealTimeTests {
    @Test("Given top is running, when Redis stops and restarts, then top says so with its last good read and then recovers")
    func outageAndRecovery() async throws {
        let fleet = try FleetKit()
        let top = try fleet.start(["top", "--plain", "--interval", "0.2", "--count", "60"], label: "top")
        try await Self.waitFor(top, timeout: .seconds(30)) { $0.contains(" jobs/s ") }
        fleet.redis.stop()
        try await Self.waitFor(top, timeout: .seconds(30)) { $0.contains("Redis is unreachable since") }
        try fleet.redis.start()
        try await Self.waitFor(top, timeout: .seconds(30)) { output in
            guard let outage = output.range(of: "Redis is unreachable since") else { return false }
            return output[outage.upperBound...].contains(" jobs/s ")
        }
        top.kill(SIGTERM)
        #expect(await top.waitForExit(timeout: .seconds(10)) != nil)
        let lines = top.output.split(separator: "\n")
        let warning = try #require(lines.first { $0.contains("Redis is unreachable since") })
        #expect(warning.contains("last good read 20"))
        #expect(warning.contains("retrying"))
        // Back to summaries once Redis answers again.
        #expect(lines.last?.contains(" jobs/s ") == true)
    }

    static func waitFor(_ child: FleetKit.Child, timeout: Duration, _ condition: (String) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(child.output) {
            if ContinuousClock.now >= deadline {
                Issue.record("timed out; top printed:\n\(child.output)\n\(child.error)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
