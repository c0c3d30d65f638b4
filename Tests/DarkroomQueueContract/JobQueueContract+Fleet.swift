import DarkroomQueue
import DarkroomSchema
import Foundation
import Testing

/// The contract for handing jobs back, dead-letter maintenance, batch progress, event cursors by
/// time and the worker registry. Like the rest of the suite, written once over a driver factory.
extension JobQueueContract {
    /// A released job comes back as the same attempt with a fresh delivery count, publishes no
    /// event, and cannot be released by a consumer that does not hold it.
    public static func releaseHandsBackWithoutUsingAnAttempt(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, _ in
            let driver = harness.driver
            _ = try await driver.enqueue([Kit.job("a", at: harness.now())])
            let first = try #require(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).first)
            var impostor = first
            impostor.consumer = "w2"
            #expect(try await driver.release(impostor, after: .zero) == false)
            #expect(try await driver.release(first, after: .zero))
            #expect(try await driver.release(first, after: .zero) == false)
            let again = try #require(try await driver.reserve(consumer: "w2", max: 1, wait: .zero).first)
            #expect(again.job.id == first.job.id)
            #expect(again.deliveryCount == 1)
            #expect(again.attempt == 1)
            #expect(try await driver.acknowledge(first, outcome: .succeeded(Kit.result)) == false)
            #expect(try await driver.acknowledge(again, outcome: .succeeded(Kit.result)))
            let types = try await Kit.allEvents(driver).map(\.type)
            #expect(types == [.batchEnqueued, .succeeded])
        }
    }

    /// A job released with a delay is not handed out before the delay has passed.
    public static func releaseWithDelayWaits(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, unit in
            let driver = harness.driver
            _ = try await driver.enqueue([Kit.job("a", at: harness.now())])
            let first = try #require(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).first)
            #expect(try await driver.release(first, after: unit * 6))
            #expect(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).isEmpty)
            try await harness.advance(unit * 7)
            #expect(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).map(\.job.id) == [first.job.id])
        }
    }

    /// Batch progress counts new jobs and each terminal outcome, and nil means an unknown batch.
    public static func batchProgressCountsOutcomes(_ make: QueueContractFactory) async throws {
        try await Kit.with(make, maxAttempts: 1) { harness, _ in
            let driver = harness.driver
            let now = harness.now()
            #expect(try await driver.batchProgress("b1") == nil)
            _ = try await driver.enqueue(["s", "f", "d", "c", "r"].map { Kit.job($0, at: now) })
            _ = try await driver.enqueue([Kit.job("s", at: now)])
            #expect(try await driver.batchProgress("b1") == BatchProgress(total: 5))
            let deliveries = try await driver.reserve(consumer: "w1", max: 3, wait: .zero)
            #expect(deliveries.map(\.job.id.rawValue) == ["s", "f", "d"])
            _ = try await driver.acknowledge(deliveries[0], outcome: .succeeded(Kit.result))
            _ = try await driver.acknowledge(deliveries[1], outcome: .failed(JobError(code: "image.corrupt", message: "x")))
            #expect(try await driver.retry(deliveries[2], after: .zero, error: JobError(code: "source.timeout", message: "y")) == .deadLettered)
            #expect(try await driver.cancel(jobs: [Kit.id("c")]) == 1)
            let progress = try #require(try await driver.batchProgress("b1"))
            #expect(progress == BatchProgress(total: 5, succeeded: 1, failed: 1, dead: 1, cancelled: 1))
            #expect(progress.remaining == 1)
            #expect(!progress.isComplete)
        }
    }

    /// `retryDeadLetters` queues dead jobs again as first attempts and takes them out of the batch's
    /// dead count; `purgeDeadLetters` empties the dead-letter queue.
    public static func deadLettersCanBeRetriedAndPurged(_ make: QueueContractFactory) async throws {
        try await Kit.with(make, maxAttempts: 1) { harness, _ in
            let driver = harness.driver
            _ = try await driver.enqueue(["a", "b", "c"].map { Kit.job($0, at: harness.now()) })
            for delivery in try await driver.reserve(consumer: "w1", max: 3, wait: .zero) {
                #expect(try await driver.deadLetter(delivery, error: JobError(code: "source.timeout", message: "slow")))
            }
            try await harness.injectRaw(Data("not json".utf8), .normal)
            #expect(try await driver.reserve(consumer: "w1", max: 1, wait: .zero).isEmpty)
            let letters = try await driver.deadLetters(limit: 10)
            #expect(letters.count == 4)
            #expect(try await driver.batchProgress("b1")?.dead == 3)
            let a = try #require(letters.first { $0.job?.id == Kit.id("a") })
            #expect(try await driver.retryDeadLetters(ids: [a.id]) == 1)
            #expect(try await driver.batchProgress("b1")?.dead == 2)
            let again = try #require(try await driver.reserve(consumer: "w1", max: 5, wait: .zero).first)
            #expect(again.job.id == Kit.id("a"))
            #expect(again.attempt == 1)
            // Garbage has no job to queue, so retrying all requeues only b and c.
            #expect(try await driver.retryDeadLetters(ids: nil) == 2)
            #expect(try await driver.deadLetters(limit: 10).count == 1)
            #expect(try await driver.purgeDeadLetters() == 1)
            #expect(try await driver.deadLetters(limit: 10).isEmpty)
            #expect(try await driver.counts().deadLettered == 0)
            #expect(try await driver.reserve(consumer: "w1", max: 5, wait: .zero).count == 2)
        }
    }

    /// `deadLetters(after:limit:)` pages through the dead letters by the last id of each page,
    /// also when that entry has left since; an id the queue never makes is `invalidCursor`.
    public static func deadLettersPageByID(_ make: QueueContractFactory) async throws {
        try await Kit.with(make, maxAttempts: 1) { harness, _ in
            let driver = harness.driver
            _ = try await driver.enqueue(["a", "b", "c", "d", "e"].map { Kit.job($0, at: harness.now()) })
            for delivery in try await driver.reserve(consumer: "w1", max: 5, wait: .zero) {
                #expect(try await driver.deadLetter(delivery, error: JobError(code: "source.timeout", message: "slow")))
            }
            let all = try await driver.deadLetters(limit: 10)
            #expect(all.count == 5)
            let first = try await driver.deadLetters(after: nil, limit: 2)
            #expect(first.map(\.id) == all.prefix(2).map(\.id))
            let second = try await driver.deadLetters(after: first[1].id, limit: 2)
            #expect(second.map(\.id) == all[2..<4].map(\.id))
            // The page's last entry retried meanwhile: the next page still starts after it.
            #expect(try await driver.retryDeadLetters(ids: [second[1].id]) == 1)
            #expect(try await driver.deadLetters(after: second[1].id, limit: 2).map(\.id) == [all[4].id])
            #expect(try await driver.deadLetters(after: all[4].id, limit: 2).isEmpty)
            await #expect(throws: JobQueueError.self) { try await driver.deadLetters(after: "not an id", limit: 2) }
        }
    }

    /// A cursor made for a time reads the events at or after it and none before.
    public static func eventCursorAtTimeSkipsOlderEvents(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, unit in
            let driver = harness.driver
            _ = try await driver.enqueue([Kit.job("a", batch: "old", at: harness.now())])
            try await harness.advance(unit * 2)
            let middle = harness.now()
            try await harness.advance(unit * 2)
            _ = try await driver.enqueue([Kit.job("b", batch: "new", at: harness.now())])
            let cursor = try await driver.eventCursor(at: middle)
            let events = try await driver.readEvents(after: cursor, limit: 10, wait: .zero).map(\.event)
            #expect(events.map(\.batch) == ["new"])
            let fromStart = try await driver.readEvents(after: try await driver.eventCursor(at: .earliest), limit: 10, wait: .zero)
            #expect(fromStart.map(\.event.batch) == ["old", "new"])
        }
    }

    /// Heartbeats make a worker live until their ttl passes; removal is immediate.
    public static func workerRegistryExpiresHeartbeats(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, unit in
            let driver = harness.driver
            func info(_ name: String, done: Int) -> WorkerInfo {
                WorkerInfo(
                    name: name, host: "h", pid: 7, concurrency: 2, jobsDone: done,
                    processors: ["resize": 1, "blur": 2], version: "0.1.0", startedAt: harness.now())
            }
            try await driver.heartbeat(info("w1", done: 0), ttl: unit * 3)
            try await driver.heartbeat(info("w2", done: 0), ttl: unit * 100)
            try await driver.heartbeat(info("w2", done: 5), ttl: unit * 100)
            let live = try await driver.liveWorkers()
            #expect(live.map(\.name) == ["w1", "w2"])
            #expect(live.last?.jobsDone == 5)
            #expect(live.last?.processors == ["resize": 1, "blur": 2])
            try await harness.advance(unit * 6)
            #expect(try await driver.liveWorkers().map(\.name) == ["w2"])
            try await driver.removeWorker(named: "w2")
            #expect(try await driver.liveWorkers().isEmpty)
        }
    }

    /// A heartbeat's processor schemas come back from `liveWorkers` as they were sent, and a
    /// worker that advertises none (one older than schemas) is listed with its processors alone.
    public static func workerRegistryCarriesSchemas(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, unit in
            let driver = harness.driver
            let schemas = [
                ProcessorSchema(
                    name: "sepia", version: 2, summary: "warm tones", module: .init(name: "acme", version: "1.2.0"),
                    parameters: [
                        .init(name: "amount", kind: .number(min: 0, max: 1), summary: "0 none, 1 full"),
                        .init(name: "tone", kind: .choiceSet(["warm", "soft"]), defaultText: "warm"),
                        .init(name: "radius", kind: .positive(max: nil), defaultText: "2.5"),
                        .init(name: "steps", kind: .integer(min: 1, max: 8), defaultText: "4"),
                        .init(name: "anchor", kind: .anchor, defaultText: "(0.25, 0.75)"),
                    ]),
                ProcessorSchema(name: "blackWhite", version: 1, summary: "", parameters: []),
            ]
            let described = WorkerInfo(
                name: "w1", host: "h", pid: 7, concurrency: 2, processors: ["sepia": 2, "blackWhite": 1], schemas: schemas,
                version: "0.2.0", startedAt: harness.now())
            let older = WorkerInfo(
                name: "w2", host: "h", pid: 8, concurrency: 2, processors: ["sepia": 1], version: "0.1.0", startedAt: harness.now())
            try await driver.heartbeat(described, ttl: unit * 100)
            try await driver.heartbeat(older, ttl: unit * 100)
            let live = try await driver.liveWorkers()
            #expect(live.map(\.name) == ["w1", "w2"])
            #expect(live.first?.schemas == schemas)
            #expect(live.last?.schemas == [])
            #expect(live.last?.processors == ["sepia": 1])
        }
    }
}
