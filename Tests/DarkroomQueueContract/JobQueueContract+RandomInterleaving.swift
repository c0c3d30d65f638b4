import DarkroomQueue
import Foundation
import Testing

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

    /// A consumer that keeps extending its lease keeps the job past the visibility timeout; once it
    /// stops, the job is reclaimed.
    public static func extendLeasePreventsReclaim(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, unit in
            let driver = harness.driver
            _ = try await driver.enqueue([Kit.job("long", at: harness.now())])
            let delivery = try #require(try await driver.reserve(consumer: "A", max: 1, wait: .zero).first)
            try await harness.advance(unit * 6 / 10)
            #expect(try await driver.extendLease(delivery))
            try await harness.advance(unit * 6 / 10)
            #expect(try await driver.reclaimStale(consumer: "B", max: 10).deliveries.isEmpty)
            #expect(try await driver.extendLease(delivery))
            try await harness.advance(unit * 2)
            let reclaimed = try await driver.reclaimStale(consumer: "B", max: 10).deliveries
            #expect(reclaimed.map(\.deliveryCount) == [2])
        }
    }

    /// Garbage is dead-lettered at once with its reason and no event; a record of an unknown
    /// version is left pending for newer workers and dead-lettered only after maxAttempts
    /// deliveries, with that reason and one `dead` event.
    public static func garbageAndUnknownVersionsAreDeadLettered(_ make: QueueContractFactory) async throws {
        try await Kit.with(make, maxAttempts: 2) { harness, unit in
            let driver = harness.driver
            try await harness.injectRaw(Data("this is not json".utf8), .normal)
            #expect(try await driver.reserve(consumer: "w1", max: 10, wait: .zero).isEmpty)
            var letters = try await driver.deadLetters(limit: 10)
            #expect(letters.count == 1)
            #expect(letters.first?.error.code == JobError.garbageCode)
            #expect(letters.first?.payload == Data("this is not json".utf8))
            #expect(try await Kit.allEvents(driver).isEmpty)

            let future = #"{"version":2,"id":"v2job","batch":"b9","spec":"something new"}"#
            try await harness.injectRaw(Data(future.utf8), .high)
            #expect(try await driver.reserve(consumer: "w1", max: 10, wait: .zero).isEmpty)
            #expect(try await driver.counts().pending == 1)
            try await harness.advance(unit * 2)
            let second = try await driver.reclaimStale(consumer: "w2", max: 10)
            #expect(second.deliveries.isEmpty)
            #expect(second.deadLettered == 0)
            try await harness.advance(unit * 2)
            #expect(try await driver.reclaimStale(consumer: "w3", max: 10).deadLettered == 1)
            letters = try await driver.deadLetters(limit: 10)
            #expect(letters.map(\.error.code) == [JobError.garbageCode, JobError.unknownVersionCode])
            let dead = try await Kit.allEvents(driver).filter { $0.type == .dead }
            #expect(dead.map(\.job?.rawValue) == ["v2job"])
            #expect(dead.first?.batch == "b9")
            #expect(try await driver.counts().pending == 0)
        }
    }

    /// Events are read in order after a cursor, in pages; reading after the latest cursor waits and
    /// is woken by a publish; queue-owned event types cannot be published by hand.
    public static func eventsAreReadInOrderAfterACursor(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, _ in
            let driver = harness.driver
            let now = harness.now()
            _ = try await driver.enqueue([Kit.job("a", at: now)])
            try await driver.publish([.workerOnline(worker: "w1", at: now),
                                      .started(job: Kit.id("a"), batch: "b1", worker: "w1", attempt: 1, at: now)])
            let first = try await driver.readEvents(after: .start, limit: 2, wait: .zero)
            #expect(first.map(\.event.type) == [.batchEnqueued, .workerOnline])
            let rest = try await driver.readEvents(after: try #require(first.last).cursor, limit: 10, wait: .zero)
            #expect(rest.map(\.event.type) == [.started])
            let latest = try await driver.latestEventCursor()
            #expect(latest == rest.last?.cursor)
            #expect(try await driver.readEvents(after: latest, limit: 10, wait: .zero).isEmpty)

            let reader = Task { try await driver.readEvents(after: latest, limit: 10, wait: .seconds(30)) }
            try await driver.publish([.workerOffline(worker: "w1")])
            #expect(try await reader.value.map(\.event.type) == [.workerOffline])

            var sequence = driver.events(after: .start).makeAsyncIterator()
            var types: [JobEventType] = []
            for _ in 0..<4 { if let envelope = try await sequence.next() { types.append(envelope.event.type) } }
            #expect(types == [.batchEnqueued, .workerOnline, .started, .workerOffline])

            for forbidden in [JobEvent.succeeded(job: Kit.id("a"), batch: "b1", worker: "w1", attempt: 1, result: Kit.result),
                              JobEvent.batchEnqueued(batch: "b1", count: 1)] {
                await #expect(throws: JobQueueError.self) { try await driver.publish([forbidden]) }
            }
        }
    }

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
                    let job = Kit.job("s\(step)", batch: batch, priority: JobPriority.allCases.randomElement(using: &random) ?? .normal,
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
