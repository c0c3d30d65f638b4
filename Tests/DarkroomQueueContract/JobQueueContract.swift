import DarkroomQueue
import Foundation
import Testing

/// The behaviour every `JobQueueDriver` must show, written once. Each function takes a factory so
/// `MemoryQueueContractTests` and the Redis driver's tests run exactly the same checks.
public enum JobQueueContract {
    typealias Kit = QueueContractKit

    /// Given jobs a and b enqueued, when a, c and c again are enqueued, then only c is new, and a
    /// finished job's id stays a no-op.
    public static func enqueueIsIdempotentOnID(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, _ in
            let driver = harness.driver
            let now = harness.now()
            #expect(try await driver.enqueue([Kit.job("a", at: now), Kit.job("b", at: now)]) == 2)
            #expect(try await driver.enqueue([Kit.job("a", at: now), Kit.job("c", at: now), Kit.job("c", at: now)]) == 1)
            let deliveries = try await driver.reserve(consumer: "w1", max: 10, wait: .zero)
            #expect(deliveries.map(\.job.id.rawValue) == ["a", "b", "c"])
            for delivery in deliveries { #expect(try await driver.acknowledge(delivery, outcome: .succeeded(Kit.result))) }
            #expect(try await driver.enqueue([Kit.job("a", at: now)]) == 0)
            #expect(try await driver.reserve(consumer: "w1", max: 10, wait: .zero).isEmpty)
            let enqueued = try await Kit.allEvents(driver).filter { $0.type == .batchEnqueued }
            #expect(enqueued.map(\.count) == [2, 1])
            #expect(enqueued.allSatisfy { $0.batch == "b1" })
        }
    }

    /// Given jobs of all priorities mixed, reserving hands out every high before any normal before
    /// any low, first-in-first-out within a priority, across several reserve calls.
    public static func priorityOrder(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, _ in
            let now = harness.now()
            let plan: [(String, JobPriority)] = [
                ("l1", .low), ("n1", .normal), ("h1", .high),
                ("l2", .low), ("n2", .normal), ("h2", .high),
            ]
            _ = try await harness.driver.enqueue(plan.map { Kit.job($0.0, priority: $0.1, at: now) })
            var order: [String] = []
            while true {
                let page = try await harness.driver.reserve(consumer: "w1", max: 2, wait: .zero)
                if page.isEmpty { break }
                order += page.map(\.job.id.rawValue)
            }
            #expect(order == ["h1", "h2", "n1", "n2", "l1", "l2"])
        }
    }

    /// Reserve never returns more than asked, `max: 0` returns nothing, and taken jobs stay pending.
    public static func reserveRespectsBackPressure(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, _ in
            let driver = harness.driver
            let now = harness.now()
            _ = try await driver.enqueue((1...10).map { Kit.job("j\($0)", at: now) })
            #expect(try await driver.reserve(consumer: "w1", max: 3, wait: .zero).count == 3)
            #expect(try await driver.reserve(consumer: "w1", max: 0, wait: .zero).isEmpty)
            #expect(try await driver.reserve(consumer: "w2", max: 4, wait: .zero).count == 4)
            #expect(try await driver.reserve(consumer: "w1", max: 5, wait: .zero).count == 3)
            #expect(try await driver.reserve(consumer: "w1", max: 5, wait: .zero).isEmpty)
            let counts = try await driver.counts()
            #expect(counts.pending == 10)
            #expect(counts.readyTotal == 0)
        }
    }

    /// Acknowledging publishes exactly one terminal event; a second ack, a retry or a dead letter of
    /// the same delivery does nothing and publishes nothing.
    public static func acknowledgePublishesExactlyOnce(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, _ in
            let driver = harness.driver
            _ = try await driver.enqueue([Kit.job("a", at: harness.now())])
            let delivery = try #require(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).first)
            #expect(delivery.deliveryCount == 1)
            #expect(delivery.attempt == 1)
            #expect(try await driver.acknowledge(delivery, outcome: .succeeded(Kit.result)))
            #expect(try await driver.acknowledge(delivery, outcome: .succeeded(Kit.result)) == false)
            #expect(try await driver.acknowledge(delivery, outcome: .failed(JobError(code: "x", message: "y"))) == false)
            #expect(try await driver.retry(delivery, after: .zero, error: JobError(code: "x", message: "y")) == .notPending)
            #expect(try await driver.deadLetter(delivery, error: JobError(code: "x", message: "y")) == false)
            let terminal = try await Kit.terminalEvents(driver)
            let events = try #require(terminal[Kit.id("a")])
            #expect(events.count == 1)
            #expect(events.first?.type == .succeeded)
            #expect(events.first?.worker == "w1")
            #expect(events.first?.attempt == 1)
            #expect(events.first?.result == Kit.result)
            #expect(try await driver.counts().pending == 0)
        }
    }

    /// A permanent failure acknowledged with `.failed` is one terminal `failed` event without retry.
    public static func acknowledgeFailureIsTerminal(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, _ in
            let driver = harness.driver
            _ = try await driver.enqueue([Kit.job("a", at: harness.now())])
            let delivery = try #require(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).first)
            let error = JobError(code: "source.not-found", message: "404 from the origin")
            #expect(try await driver.acknowledge(delivery, outcome: .failed(error)))
            let events = try await Kit.allEvents(driver).filter { $0.type == .failed }
            #expect(events.count == 1)
            #expect(events.first?.error == error)
            #expect(events.first?.willRetry == false)
            #expect(events.first?.isTerminal == true)
        }
    }

    /// Given a job reserved by A and never finished, no one can reclaim it before the visibility
    /// timeout; after it, B reclaims it with the delivery count incremented, A's lease is gone, and
    /// of the two acknowledgements only one publishes.
    public static func staleReservationIsReclaimedOnce(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, unit in
            let driver = harness.driver
            _ = try await driver.enqueue([Kit.job("a", at: harness.now())])
            let first = try #require(try await driver.reserve(consumer: "A", max: 1, wait: .zero).first)
            #expect(try await driver.reclaimStale(consumer: "B", max: 10).deliveries.isEmpty)
            try await harness.advance(unit * 2)
            let reclaimed = try await driver.reclaimStale(consumer: "B", max: 10)
            let second = try #require(reclaimed.deliveries.first)
            #expect(reclaimed.deliveries.count == 1)
            #expect(second.job.id == first.job.id)
            #expect(second.consumer == "B")
            #expect(second.deliveryCount == 2)
            #expect(second.attempt == 2)
            #expect(try await driver.extendLease(first) == false)
            let ackA = try await driver.acknowledge(first, outcome: .succeeded(Kit.result))
            let ackB = try await driver.acknowledge(second, outcome: .succeeded(Kit.result))
            #expect([ackA, ackB].filter { $0 }.count == 1)
            #expect(try await Kit.terminalEvents(driver)[Kit.id("a")]?.count == 1)
        }
    }

    /// With maxAttempts 3, a job whose workers keep vanishing is delivered 3 times, then the next
    /// reclaim dead-letters it with `queue.stalled` and exactly one `dead` event.
    public static func stalledJobIsDeadLetteredAfterMaxAttempts(_ make: QueueContractFactory) async throws {
        try await Kit.with(make, maxAttempts: 3) { harness, unit in
            let driver = harness.driver
            _ = try await driver.enqueue([Kit.job("a", at: harness.now())])
            #expect(try await driver.reserve(consumer: "w0", max: 1, wait: .zero).count == 1)
            for consumer in ["w1", "w2"] {
                try await harness.advance(unit * 2)
                #expect(try await driver.reclaimStale(consumer: consumer, max: 10).deliveries.count == 1)
            }
            try await harness.advance(unit * 2)
            let last = try await driver.reclaimStale(consumer: "w3", max: 10)
            #expect(last.deliveries.isEmpty)
            #expect(last.deadLettered == 1)
            let dead = try await Kit.allEvents(driver).filter { $0.type == .dead }
            #expect(dead.count == 1)
            #expect(dead.first?.job == Kit.id("a"))
            #expect(dead.first?.attempt == 3)
            #expect(dead.first?.error?.code == JobError.stalledCode)
            let letters = try await driver.deadLetters(limit: 10)
            #expect(letters.map(\.job?.id) == [Kit.id("a")])
            #expect(letters.first?.error.code == JobError.stalledCode)
            let counts = try await driver.counts()
            #expect(counts.pending == 0)
            #expect(counts.deadLettered == 1)
        }
    }

    /// With maxAttempts 3, a job failing transiently is retried twice (each a `failed` event with
    /// `willRetry`, each next attempt carrying the error), then dead-lettered with its last error.
    public static func retriesExhaustedDeadLetterWithLastError(_ make: QueueContractFactory) async throws {
        try await Kit.with(make, maxAttempts: 3) { harness, unit in
            let driver = harness.driver
            _ = try await driver.enqueue([Kit.job("a", at: harness.now())])
            var dispositions: [RetryDisposition] = []
            for attempt in 1...3 {
                let delivery = try #require(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).first)
                #expect(delivery.attempt == attempt)
                #expect(delivery.job.lastError?.message == (attempt == 1 ? nil : "timeout \(attempt - 1)"))
                let disposition = try await driver.retry(
                    delivery, after: unit / 10,
                    error: JobError(code: "source.timeout", message: "timeout \(attempt)"))
                if case .scheduled = disposition { try await harness.advance(unit / 5) }
                dispositions.append(disposition)
            }
            #expect(dispositions.last == .deadLettered)
            let events = try await Kit.allEvents(driver).filter { $0.job == Kit.id("a") }
            #expect(events.map(\.type) == [.failed, .failed, .dead])
            #expect(events.map(\.willRetry) == [true, true, nil])
            #expect(events.last?.error?.message == "timeout 3")
            #expect(events.filter(\.isTerminal).count == 1)
            #expect(try await driver.deadLetters(limit: 10).first?.error.message == "timeout 3")
        }
    }

    /// A job with `notBefore` in the future is not handed out until it is due.
    public static func delayedJobWaitsUntilDue(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, unit in
            let driver = harness.driver
            let now = harness.now()
            // Six units of delay: with a real clock, a loaded machine may take a unit between two calls.
            _ = try await driver.enqueue([Kit.job("later", notBefore: now.adding(unit * 6), at: now), Kit.job("now", at: now)])
            #expect(try await driver.reserve(consumer: "w1", max: 10, wait: .zero).map(\.job.id.rawValue) == ["now"])
            #expect(try await driver.counts().delayed == 1)
            try await harness.advance(unit * 7)
            #expect(try await driver.reserve(consumer: "w1", max: 10, wait: .zero).map(\.job.id.rawValue) == ["later"])
        }
    }

    /// A retry waits for its delay, then comes back as the next attempt with the error.
    public static func delayedRetryWaitsForItsDelay(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, unit in
            let driver = harness.driver
            _ = try await driver.enqueue([Kit.job("a", at: harness.now())])
            let delivery = try #require(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).first)
            let error = JobError(code: "source.http-503", message: "origin busy")
            guard case .scheduled(let due) = try await driver.retry(delivery, after: unit * 6, error: error) else {
                Issue.record("retry was not scheduled")
                return
            }
            #expect(due >= harness.now().adding(unit))
            #expect(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).isEmpty)
            try await harness.advance(unit * 7)
            let again = try #require(try await driver.reserve(consumer: "w2", max: 1, wait: .zero).first)
            #expect(again.job.id == delivery.job.id)
            #expect(again.attempt == 2)
            #expect(again.job.lastError == error)
            let failed = try await Kit.allEvents(driver).filter { $0.type == .failed }
            #expect(failed.count == 1)
            #expect(failed.first?.willRetry == true)
            #expect(failed.first?.isTerminal == false)
        }
    }
}
