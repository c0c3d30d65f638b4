import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomCLI

@Suite("Progress off a terminal: plain log lines at an interval")
struct ProgressLogTests {
    final class Collector: Sendable {
        let lines = Locked<[String]>([])
        func add(_ text: String) { lines.withLock { $0.append(text) } }
    }

    @Test("Without a terminal, progress is logged as whole lines no more often than the interval")
    func logsAtAnInterval() async throws {
        let collector = Collector()
        // A clock the test moves: the interval passes exactly when it says, however slow the machine.
        let clock = ManualInstantClock()
        let bar = ProgressBar(
            total: 10, title: "batch b", enabled: false, logInterval: .seconds(10),
            width: { 80 }, output: { collector.add($0) }, now: clock.now)
        bar.update(finished: 1, failed: 0)
        #expect(collector.lines.withLock { $0 }.isEmpty)
        clock.advance(by: .seconds(10))
        bar.update(finished: 4, failed: 1)
        bar.update(finished: 5, failed: 1)
        let lines = collector.lines.withLock { $0 }
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.hasSuffix("\n"))
        #expect(!line.contains("\r") && !line.contains("\u{1B}"))
        #expect(line.contains("batch b") && line.contains("4/10") && line.contains("1 failed"))
    }

    @Test("A drawn bar never logs, and a bar off a terminal without an interval prints nothing")
    func quietModes() {
        let collector = Collector()
        let silent = ProgressBar(total: 10, title: "t", enabled: false, width: { 80 }, output: { collector.add($0) })
        silent.update(finished: 10, failed: 0)
        silent.finish()
        #expect(collector.lines.withLock { $0 }.isEmpty)
        let drawn = ProgressBar(total: 10, title: "t", enabled: true, logInterval: .zero, width: { 80 }, output: { collector.add($0) })
        #expect(drawn.logInterval == nil)
    }
}
