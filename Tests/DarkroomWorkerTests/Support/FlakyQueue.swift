import DarkroomQueue
import Synchronization

/// A `MemoryQueue` behind switches: while `isDown`, every call throws `queue.unavailable` (Redis
/// unreachable); with `failAcknowledgements`, only `acknowledge` does. Counts the failures. With
/// `reservesStale`, `reserve` hands out stale entries first, several at once, and `reclaimStale`
/// finds none: a driver that folds reclaiming into reserving. Counts the leases it extends, and
/// the calls a job's path makes (`jobCalls`: reserve, acknowledge in any form, retry, release,
/// and publishing `started`), as round trips to Redis would count them.
final class FlakyQueue: JobQueueDriver, DeadLetterQueue, CancellableJobQueue, WorkerRegistry, ProgressReportingQueue {
    let inner: MemoryQueue
    private let down = Atomic<Bool>(false)
    private let failAcks = Atomic<Bool>(false)
    private let failures = Atomic<Int>(0)
    private let reservesStale: Bool
    private let extensions = Atomic<Int>(0)
    private let calls = Atomic<Int>(0)

    init(_ inner: MemoryQueue, down: Bool = false, failAcknowledgements: Bool = false, reservesStale: Bool = false) {
        self.inner = inner
        self.down.store(down, ordering: .sequentiallyConsistent)
        failAcks.store(failAcknowledgements, ordering: .sequentiallyConsistent)
        self.reservesStale = reservesStale
    }

    var isDown: Bool {
        get { down.load(ordering: .sequentiallyConsistent) }
        set { down.store(newValue, ordering: .sequentiallyConsistent) }
    }

    var failedCalls: Int { failures.load(ordering: .sequentiallyConsistent) }

    /// Calls on a job's path so far (see the type's comment).
    var jobCalls: Int { calls.load(ordering: .sequentiallyConsistent) }

    private func count() { calls.add(1, ordering: .sequentiallyConsistent) }

    /// Leases renewed (`extendLease` answered true).
    var leasesExtended: Int { extensions.load(ordering: .sequentiallyConsistent) }

    private func check(acknowledging: Bool = false) throws {
        if isDown || (acknowledging && failAcks.load(ordering: .sequentiallyConsistent)) {
            failures.add(1, ordering: .sequentiallyConsistent)
            throw JobQueueError(.unavailable, "the test switched the queue off")
        }
    }

    var configuration: JobQueueConfiguration { inner.configuration }
    func enqueue(_ jobs: [Job]) async throws -> Int {
        try check()
        return try await inner.enqueue(jobs)
    }
    func reserve(consumer: String, max: Int, wait: Duration, offering: Set<String>) async throws -> [JobDelivery] {
        try check()
        count()
        if reservesStale {
            let stale = try await inner.reclaimStale(consumer: consumer, max: max, offering: offering).deliveries
            if !stale.isEmpty { return stale }
        }
        return try await inner.reserve(consumer: consumer, max: max, wait: wait, offering: offering)
    }
    func acknowledge(_ delivery: JobDelivery, outcome: JobOutcome) async throws -> Bool {
        try check(acknowledging: true)
        count()
        return try await inner.acknowledge(delivery, outcome: outcome)
    }
    func acknowledge(_ outcomes: [(delivery: JobDelivery, outcome: JobOutcome)]) async throws -> [Bool] {
        try check(acknowledging: !outcomes.isEmpty)
        count()
        return try await inner.acknowledge(outcomes)
    }
    /// One call, as the Redis driver's one script; with `reservesStale`, the reservation hands out
    /// stale entries first, as `reserve` does.
    func acknowledge(
        _ outcomes: [(delivery: JobDelivery, outcome: JobOutcome)], publishing events: [JobEvent], reserving next: NextReservation?
    ) async throws -> AcknowledgedAndReserved {
        try check(acknowledging: !outcomes.isEmpty)
        count()
        guard reservesStale, let next, next.max > 0 else {
            return try await inner.acknowledge(outcomes, publishing: events, reserving: next)
        }
        let answer = try await inner.acknowledge(outcomes, publishing: events, reserving: nil)
        var reserved = try await inner.reclaimStale(consumer: next.consumer, max: next.max, offering: next.offering).deliveries
        if reserved.isEmpty {
            reserved = try await inner.reserve(consumer: next.consumer, max: next.max, wait: .zero, offering: next.offering)
        }
        return AcknowledgedAndReserved(acknowledged: answer.acknowledged, reserved: reserved)
    }
    func retry(_ delivery: JobDelivery, after: Duration, error: JobError) async throws -> RetryDisposition {
        try check(acknowledging: true)
        count()
        return try await inner.retry(delivery, after: after, error: error)
    }
    func deadLetter(_ delivery: JobDelivery, error: JobError) async throws -> Bool {
        try check(acknowledging: true)
        return try await inner.deadLetter(delivery, error: error)
    }
    func extendLease(_ delivery: JobDelivery) async throws -> Bool {
        try check()
        let extended = try await inner.extendLease(delivery)
        if extended { extensions.add(1, ordering: .sequentiallyConsistent) }
        return extended
    }
    func reclaimStale(consumer: String, olderThan: Duration, max: Int, offering: Set<String>) async throws -> ReclaimResult {
        try check()
        if reservesStale { return ReclaimResult() }
        return try await inner.reclaimStale(consumer: consumer, olderThan: olderThan, max: max, offering: offering)
    }
    func cancel(batch: String) async throws -> Int {
        try check()
        return try await inner.cancel(batch: batch)
    }
    func cancel(jobs: [JobID]) async throws -> Int {
        try check()
        return try await inner.cancel(jobs: jobs)
    }
    func publish(_ events: [JobEvent]) async throws {
        try check()
        if events.contains(where: { $0.type == .started }) { count() }
        try await inner.publish(events)
    }
    func readEvents(after cursor: EventCursor, limit: Int, wait: Duration) async throws -> [EventEnvelope] {
        try check()
        return try await inner.readEvents(after: cursor, limit: limit, wait: wait)
    }
    func latestEventCursor() async throws -> EventCursor {
        try check()
        return try await inner.latestEventCursor()
    }
    func deadLetters(after: String?, limit: Int) async throws -> [DeadLetter] {
        try check()
        return try await inner.deadLetters(after: after, limit: limit)
    }
    func counts() async throws -> QueueCounts {
        try check()
        return try await inner.counts()
    }
    func release(_ delivery: JobDelivery, after: Duration) async throws -> Bool {
        try check()
        count()
        return try await inner.release(delivery, after: after)
    }
    func retryDeadLetters(ids: [String]?) async throws -> Int {
        try check()
        return try await inner.retryDeadLetters(ids: ids)
    }
    func purgeDeadLetters() async throws -> Int {
        try check()
        return try await inner.purgeDeadLetters()
    }
    func batchProgress(_ batch: String) async throws -> BatchProgress? {
        try check()
        return try await inner.batchProgress(batch)
    }
    func eventCursor(at time: Timestamp) async throws -> EventCursor {
        try check()
        return try await inner.eventCursor(at: time)
    }
    func heartbeat(_ worker: WorkerInfo, ttl: Duration) async throws {
        try check()
        try await inner.heartbeat(worker, ttl: ttl)
    }
    func removeWorker(named name: String) async throws {
        try check()
        try await inner.removeWorker(named: name)
    }
    func liveWorkers() async throws -> [WorkerInfo] {
        try check()
        return try await inner.liveWorkers()
    }
}
