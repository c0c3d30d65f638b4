import DarkroomQueue
import DarkroomSystem
import Foundation
import Testing

/// Behaviour specific to the in-memory driver: blocking reserves and their wake-ups.
@Suite("MemoryQueue waits for work without polling")
struct MemoryQueueWaitingTests {
    static func job(_ name: String, notBefore: Timestamp? = nil, at now: Timestamp) -> Job {
        Job(
            id: JobID(rawValue: name) ?? .make(), batch: "w", source: "/\(name).png", chain: "blur(1)",
            enqueuedAt: now, notBefore: notBefore)
    }

    /// Moves the clock a step at a time until `task` finishes (whenever it started waiting), and
    /// returns its value. Bounded, so a reserver that never wakes fails instead of hanging.
    static func advance(_ clock: ManualQueueClock, by step: Duration, until task: Task<[JobDelivery], any Error>)
        async throws -> [JobDelivery]
    {
        let finished = Locked(false)
        let watcher = Task {
            let value = try await task.value
            finished.withLock { $0 = true }
            return value
        }
        for _ in 0..<100_000 where !finished.withLock({ $0 }) {
            clock.advance(by: step)
            await Task.yield()
        }
        task.cancel()
        return try await watcher.value
    }

    @Test("Given a reserver waiting on an empty queue, when a job is enqueued, then it receives it")
    func wokenByEnqueue() async throws {
        let clock = ManualQueueClock()
        let queue = MemoryQueue(clock: clock)
        let reserver = Task { try await queue.reserve(consumer: "w1", max: 4, wait: .seconds(3600)) }
        _ = try await queue.enqueue([Self.job("a", at: clock.now())])
        #expect(try await reserver.value.map(\.job.id.rawValue) == ["a"])
    }

    @Test("Given a reserver waiting and a delayed job, when the clock reaches its time, then the reserver receives it")
    func wokenByDueTime() async throws {
        let clock = ManualQueueClock()
        let queue = MemoryQueue(clock: clock)
        _ = try await queue.enqueue([Self.job("later", notBefore: clock.now().adding(.seconds(10)), at: clock.now())])
        let reserver = Task { try await queue.reserve(consumer: "w1", max: 1, wait: .seconds(3600)) }
        let deliveries = try await Self.advance(clock, by: .seconds(1), until: reserver)
        #expect(deliveries.map(\.job.id.rawValue) == ["later"])
        // Woken at the due time, long before the hour-long wait ran out.
        #expect(clock.now().duration(since: deliveries[0].job.enqueuedAt) < .seconds(3600))
    }

    @Test("Given a reserver waiting, when its wait runs out on the clock, then it returns nothing")
    func timesOut() async throws {
        let clock = ManualQueueClock()
        let queue = MemoryQueue(clock: clock)
        let reserver = Task { try await queue.reserve(consumer: "w1", max: 1, wait: .seconds(5)) }
        #expect(try await Self.advance(clock, by: .seconds(1), until: reserver).isEmpty)
    }

    @Test("Given a reserver waiting, when its task is cancelled, then it returns nothing at once")
    func cancelled() async throws {
        let queue = MemoryQueue(clock: ManualQueueClock())
        let reserver = Task { try await queue.reserve(consumer: "w1", max: 1, wait: .seconds(3600)) }
        reserver.cancel()
        #expect(try await reserver.value.isEmpty)
    }

    @Test("Jobs with a problem are refused before anything is enqueued")
    func refusesInvalidJobs() async throws {
        let queue = MemoryQueue(clock: ManualQueueClock())
        var bad = Self.job("bad", at: .now())
        bad.quality = 0
        await #expect(throws: JobQueueError.self) { try await queue.enqueue([Self.job("good", at: .now()), bad]) }
        #expect(try await queue.counts().readyTotal == 0)
        await #expect(throws: JobQueueError.self) { try await queue.reserve(consumer: "", max: 1, wait: .zero) }
        await #expect(throws: JobQueueError.self) {
            try await queue.readEvents(after: EventCursor(rawValue: "1700000000000-0"), limit: 1, wait: .zero)
        }
    }
}

@Suite("Queue configuration")
struct JobQueueConfigurationTests {
    @Test("Limits are clamped to workable values, also when set after creation")
    func clampsLimits() {
        var configuration = JobQueueConfiguration(visibilityTimeout: .zero, maxAttempts: 0, eventRetention: -5)
        #expect(configuration.visibilityTimeout == .milliseconds(1))
        #expect(configuration.maxAttempts == 1)
        #expect(configuration.eventRetention == 1)
        configuration.eventRetention = -1
        configuration.maxAttempts = -3
        configuration.visibilityTimeout = .seconds(-2)
        #expect(configuration.eventRetention == 1)
        #expect(configuration.maxAttempts == 1)
        #expect(configuration.visibilityTimeout == .milliseconds(1))
    }
}
