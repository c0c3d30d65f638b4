import DarkroomQueue
import Testing

/// The contract of `CancellableJobQueue`: cancelling drops only what is not yet handed out.
extension JobQueueContract {
    /// Cancelling a batch drops its ready and delayed jobs with one `cancelled` event each, leaves
    /// its running job alone, and does not touch other batches; cancelling by id skips unknown ids.
    public static func cancelDropsQueuedJobsWithOneEventEach(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, unit in
            let driver = harness.driver
            let now = harness.now()
            _ = try await driver.enqueue([
                Kit.job("x1", batch: "x", at: now), Kit.job("x2", batch: "x", notBefore: now.adding(unit * 5), at: now),
                Kit.job("x3", batch: "x", at: now), Kit.job("y1", batch: "y", at: now),
            ])
            let running = try #require(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).first)
            #expect(running.job.id == Kit.id("x1"))
            #expect(try await driver.cancel(batch: "x") == 2)
            #expect(try await driver.cancel(batch: "x") == 0)
            try await harness.advance(unit * 6)
            #expect(try await driver.reserve(consumer: "w1", max: 10, wait: .zero).map(\.job.id.rawValue) == ["y1"])
            #expect(try await driver.acknowledge(running, outcome: .succeeded(Kit.result)))
            let cancelled = try await Kit.allEvents(driver).filter { $0.type == .cancelled }
            #expect(Set(cancelled.compactMap(\.job?.rawValue)) == ["x2", "x3"])
            #expect(cancelled.allSatisfy { $0.batch == "x" && $0.isTerminal })

            _ = try await driver.enqueue([Kit.job("z1", batch: "z", at: now), Kit.job("z2", batch: "z", at: now)])
            #expect(try await driver.cancel(jobs: [Kit.id("z2"), Kit.id("nope")]) == 1)
            #expect(try await driver.cancel(jobs: [Kit.id("z2")]) == 0)
            #expect(try await driver.reserve(consumer: "w1", max: 10, wait: .zero).map(\.job.id.rawValue) == ["z1"])
            let terminal = try await Kit.terminalEvents(driver)
            #expect(terminal.values.allSatisfy { $0.count == 1 })
        }
    }
}
