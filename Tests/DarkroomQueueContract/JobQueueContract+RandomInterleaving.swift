import DarkroomQueue
import Foundation
import Testing

/// The contract under a seeded random interleaving of every operation.
extension JobQueueContract {
    /// Under a seeded random interleaving of enqueues (some repeated), reservations, acks, retries,
    /// dead letters, lease extensions, consumer crashes, reclaims, cancels and time passing, then a
    /// drain, every job ends with exactly one terminal event and nothing is left in the queue.
    public static func everyJobEndsOnceUnderRandomInterleaving(_ make: QueueContractFactory, seed: UInt64, steps: Int) async throws {
        try await Kit.with(make, maxAttempts: 4) { harness, unit in
            let driver = harness.driver
            var random = QueueContractRandom(seed: seed)
            let consumers = ["c1", "c2", "c3"]
            var held: [String: [JobDelivery]] = [:]
            var enqueued: [Job] = []
            let error = JobError(code: "source.timeout", message: "slow origin")

            func takeHeld(_ consumer: String) -> JobDelivery? {
                guard var list = held[consumer], !list.isEmpty else { return nil }
                let delivery = list.remove(at: Int.random(in: 0..<list.count, using: &random))
                held[consumer] = list
                return delivery
            }

            for step in 0..<steps {
                let consumer = consumers[Int.random(in: 0..<consumers.count, using: &random)]
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<12:
                    let now = harness.now()
                    let batch = "r\(Int.random(in: 0..<2, using: &random))"
                    let delay: Timestamp? = Bool.random(using: &random) ? nil : now.adding(unit / 2)
                    let job = Kit.job(
                        "s\(step)", batch: batch, priority: JobPriority.allCases.randomElement(using: &random) ?? .normal,
                        notBefore: delay, at: now)
                    var batchJobs = [job]
                    if let old = enqueued.randomElement(using: &random) { batchJobs.append(old) }
                    _ = try await driver.enqueue(batchJobs)
                    enqueued.append(job)
                case 12..<30:
                    let got = try await driver.reserve(consumer: consumer, max: Int.random(in: 1...4, using: &random), wait: .zero)
                    held[consumer, default: []] += got
                case 30..<45:
                    if let delivery = takeHeld(consumer) {
                        let outcome: JobOutcome = Bool.random(using: &random) ? .succeeded(Kit.result) : .failed(error)
                        _ = try await driver.acknowledge(delivery, outcome: outcome)
                    }
                case 45..<55:
                    if let delivery = takeHeld(consumer) {
                        _ = try await driver.retry(delivery, after: Bool.random(using: &random) ? .zero : unit / 2, error: error)
                    }
                case 55..<59:
                    if let delivery = takeHeld(consumer) { _ = try await driver.deadLetter(delivery, error: error) }
                case 59..<65:
                    if let delivery = held[consumer]?.first { _ = try await driver.extendLease(delivery) }
                case 65..<70:
                    held[consumer] = []  // the consumer crashed: its leases are left to go stale
                case 70..<78:
                    try await harness.advance(Bool.random(using: &random) ? unit / 2 : unit * 2)
                case 78..<90:
                    let got = try await driver.reclaimStale(consumer: consumer, max: Int.random(in: 1...4, using: &random))
                    held[consumer, default: []] += got.deliveries
                case 90..<95:
                    if let job = enqueued.randomElement(using: &random) { _ = try await driver.cancel(jobs: [job.id]) }
                default:
                    // A stale copy is acknowledged late: the queue must not publish twice.
                    if let delivery = held.values.joined().randomElement(using: &random) {
                        _ = try await driver.acknowledge(delivery, outcome: .succeeded(Kit.result))
                    }
                }
            }

            // Drain: let everything become due or stale, then finish whatever is handed out.
            for _ in 0..<40 {
                let counts = try await driver.counts()
                if counts.pending == 0, counts.delayed == 0, counts.readyTotal == 0 { break }
                try await harness.advance(unit * 2)
                var deliveries = try await driver.reclaimStale(consumer: "drain", max: 1000).deliveries
                deliveries += try await driver.reserve(consumer: "drain", max: 1000, wait: .zero)
                for delivery in deliveries { _ = try await driver.acknowledge(delivery, outcome: .succeeded(Kit.result)) }
            }

            let counts = try await driver.counts()
            #expect(counts.pending == 0 && counts.delayed == 0 && counts.readyTotal == 0)
            let terminal = try await Kit.terminalEvents(driver)
            let ids = Set(enqueued.map(\.id))
            #expect(Set(terminal.keys) == ids)
            let repeated = terminal.filter { $0.value.count != 1 }
            let repeatedIDs = repeated.keys.sorted().prefix(5).map(\.rawValue)
            #expect(repeated.count == 0, "jobs with more than one terminal event, e.g. \(repeatedIDs)")
            #expect(ids.count > steps / 20)
        }
    }
}
