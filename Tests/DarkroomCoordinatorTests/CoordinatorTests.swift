import DarkroomQueue
import Foundation
import Logging
import Testing

@testable import DarkroomCoordinator

/// The coordinator as a running service over an in-memory queue.
@Suite("The coordinator service")
struct CoordinatorTests {
    @Test("Running, it logs events as they are published; asked to stop, it writes what it has and returns")
    func runsUntilStopped() async throws {
        let scratch = try EventLogTests.Scratch()
        let queue = try await EventLogTests.queue(events: 3)
        let coordinator = Coordinator(
            queue: queue, configuration: .init(eventLog: scratch.configuration(), pollWait: .milliseconds(50)),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let running = Task { try await coordinator.run() }
        try await EventLogTests.publish(2, from: 3, to: queue)
        // A bound on the polling only, not a timing: a coordinator that never writes fails the test.
        var polls = 0
        while try scratch.lines(scratch.path).count < 5, polls < 3000 {
            try await Task.sleep(for: .milliseconds(20))
            polls += 1
        }
        coordinator.shutdownGracefully()
        try await running.value
        #expect(try EventLogTests.workers(scratch.lines(scratch.path)) == (0..<5).map { "w\($0)" })
    }
}
