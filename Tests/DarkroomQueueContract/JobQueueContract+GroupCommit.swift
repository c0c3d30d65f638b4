import DarkroomQueue
import Foundation
import Testing

/// The contract of the group-commit form of `acknowledge`: per-entry answers, and still exactly one
/// terminal event per job.
extension JobQueueContract {
    /// Given three reserved jobs of which one was already finished by a single acknowledgement,
    /// and one whose lease went stale and was reclaimed by another consumer, when the first consumer
    /// acknowledges all three in one call, then each entry gets its own answer — true, false
    /// (already finished), true — the reclaiming consumer's later acknowledgement answers false,
    /// every job has exactly one terminal event, and the batch counts each outcome once.
    public static func groupCommitAnswersPerEntryAndPublishesOnce(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, unit in
            let driver = harness.driver
            let now = harness.now()
            _ = try await driver.enqueue(["a", "b", "c"].map { Kit.job($0, at: now) })
            let deliveries = try await driver.reserve(consumer: "w1", max: 3, wait: .zero)
            #expect(deliveries.map(\.job.id.rawValue) == ["a", "b", "c"])
            guard deliveries.count == 3 else { return }
            #expect(try await driver.acknowledge(deliveries[1], outcome: .succeeded(Kit.result)))
            try await harness.advance(unit * 2)
            // Everything still pending (a and c) is stale now; w2 takes both over.
            let reclaimed = try await driver.reclaimStale(consumer: "w2", max: 10).deliveries
            #expect(reclaimed.map(\.job.id.rawValue) == ["a", "c"])

            let failure = JobError(code: "image.corrupt", message: "not an image")
            let answers = try await driver.acknowledge([
                (delivery: deliveries[0], outcome: .succeeded(Kit.result)),
                (delivery: deliveries[1], outcome: .succeeded(Kit.result)),
                (delivery: deliveries[2], outcome: .failed(failure)),
            ])
            #expect(answers == [true, false, true])
            for late in reclaimed {
                #expect(try await driver.acknowledge(late, outcome: .succeeded(Kit.result)) == false)
            }
            #expect(try await driver.acknowledge([]) == [])

            let terminal = try await Kit.terminalEvents(driver)
            #expect(terminal.mapValues(\.count) == [Kit.id("a"): 1, Kit.id("b"): 1, Kit.id("c"): 1])
            #expect(terminal[Kit.id("a")]?.first?.type == .succeeded)
            #expect(terminal[Kit.id("a")]?.first?.worker == "w1")
            let failed = try #require(terminal[Kit.id("c")]?.first)
            #expect(failed.type == .failed && failed.willRetry == false && failed.error == failure)
            #expect(try await driver.batchProgress("b1") == BatchProgress(total: 3, succeeded: 2, failed: 1))
            #expect(try await driver.counts().pending == 0)
        }
    }

    /// A group commit of many jobs across priorities answers true for each, in order, and each
    /// job's event names its own attempt and result.
    public static func groupCommitOfManyJobsAcrossPriorities(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, _ in
            let driver = harness.driver
            let now = harness.now()
            let priorities: [JobPriority] = [.high, .normal, .low]
            let jobs = (0..<600).map { Kit.job("j\($0)", priority: priorities[$0 % 3], at: now) }
            #expect(try await driver.enqueue(jobs) == 600)
            var deliveries: [JobDelivery] = []
            while true {
                let page = try await driver.reserve(consumer: "w1", max: 250, wait: .zero)
                if page.isEmpty { break }
                deliveries += page
            }
            #expect(deliveries.count == 600)
            let answers = try await driver.acknowledge(deliveries.map { (delivery: $0, outcome: .succeeded(Kit.result)) })
            #expect(answers == Array(repeating: true, count: 600))
            let succeeded = try await Kit.allEvents(driver).filter { $0.type == .succeeded }
            #expect(succeeded.map(\.job) == deliveries.map(\.job.id))
            #expect(succeeded.allSatisfy { $0.result == Kit.result && $0.attempt == 1 && $0.worker == "w1" })
            #expect(try await driver.batchProgress("b1")?.succeeded == 600)
        }
    }
}
