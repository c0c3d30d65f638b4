import Foundation

/// The in-process `JobQueueDriver`: the same semantics as the Redis driver, for embedded
/// `darkroom run` and fast tests. Jobs are stored as their JSON records (as in Redis) so that
/// garbage and unknown versions behave the same way; time comes from an injectable `QueueClock`
/// so visibility timeouts and delays can be tested without sleeping.
///
/// Nothing survives the process: this driver gives at-least-once delivery among the consumers of
/// one process only.
public actor MemoryQueue: JobQueueDriver, DeadLetterQueue, CancellableJobQueue, WorkerRegistry, ProgressReportingQueue {
    public nonisolated let configuration: JobQueueConfiguration
    private let clock: any QueueClock
    private var state: MemoryQueueState
    private var waiters = MemoryQueueWaiters()

    public init(configuration: JobQueueConfiguration = JobQueueConfiguration(), clock: any QueueClock = SystemQueueClock()) {
        self.configuration = configuration
        self.clock = clock
        self.state = MemoryQueueState(configuration: configuration)
    }

    public func enqueue(_ jobs: [Job]) async throws -> Int {
        try await enqueueReport(jobs, progress: nil).added
    }

    public func enqueueReport(_ jobs: [Job], progress: (@Sendable (Int) -> Void)?) async throws -> EnqueueReport {
        var payloads: [Data] = []
        payloads.reserveCapacity(jobs.count)
        for job in jobs {
            if let problem = job.problem {
                throw JobQueueError(.invalidArgument, "job \(job.id): \(problem); nothing was enqueued")
            }
            payloads.append(try encode(job))
        }
        let report = state.enqueue(jobs, payloads: payloads, now: clock.now())
        if report.added > 0 { waiters.wake(.work) }
        waiters.wake(.events)
        progress?(jobs.count)
        return report
    }

    /// Queues `payload` exactly as a foreign producer writing into the stream would: no validation,
    /// no id bookkeeping, no event. For tests and tooling that must exercise garbage handling.
    public func enqueueRaw(_ payload: Data, priority: JobPriority = .normal) {
        state.place(state.makeEntry(payload: payload, priority: priority), due: nil, now: clock.now())
        waiters.wake(.work)
    }

    public func reserve(consumer: String, max: Int, wait: Duration, offering: Set<String>) async throws -> [JobDelivery] {
        try Self.check(consumer: consumer)
        guard max > 0 else { return [] }
        let deadline = clock.now().adding(wait)
        while true {
            let now = clock.now()
            let deliveries = state.reserve(consumer: consumer, max: max, offering: offering, now: now)
            if !deliveries.isEmpty || now >= deadline || Task.isCancelled { return deliveries }
            let wakeAt = state.nextDue.map { Swift.min($0, deadline) } ?? deadline
            await waitForSignal(.work, until: wakeAt)
        }
    }

    public func acknowledge(_ delivery: JobDelivery, outcome: JobOutcome) async throws -> Bool {
        defer { waiters.wake(.events) }
        return state.acknowledge(delivery, outcome: outcome, now: clock.now())
    }

    /// One actor step, as the Redis driver's one script: events, then the acknowledgements, then
    /// the reservation, with nothing of another caller's in between.
    public func acknowledge(
        _ outcomes: [(delivery: JobDelivery, outcome: JobOutcome)], publishing events: [JobEvent], reserving next: NextReservation?
    ) async throws -> AcknowledgedAndReserved {
        try Self.checkPublishable(events)
        if let next { try Self.check(consumer: next.consumer) }
        defer { waiters.wake(.events) }
        let now = clock.now()
        for event in events { state.append(event) }
        let acknowledged = outcomes.map { state.acknowledge($0.delivery, outcome: $0.outcome, now: now) }
        var reserved: [JobDelivery] = []
        if let next, next.max > 0 {
            reserved = state.reserve(consumer: next.consumer, max: next.max, offering: next.offering, now: now)
        }
        return AcknowledgedAndReserved(acknowledged: acknowledged, reserved: reserved)
    }

    public func retry(_ delivery: JobDelivery, after delay: Duration, error: JobError) async throws -> RetryDisposition {
        defer { waiters.wake(.events) }
        let disposition = try state.retry(delivery, after: delay, error: error, now: clock.now())
        // A zero-delay retry is ready now; a delayed one shortens sleeping reservers' wait.
        if case .scheduled = disposition { waiters.wake(.work) }
        return disposition
    }

    public func deadLetter(_ delivery: JobDelivery, error: JobError) async throws -> Bool {
        defer { waiters.wake(.events) }
        return state.deadLetter(delivery, error: error, now: clock.now())
    }

    public func extendLease(_ delivery: JobDelivery) async throws -> Bool {
        state.extendLease(delivery, now: clock.now())
    }

    public func reclaimStale(consumer: String, olderThan: Duration, max: Int, offering: Set<String>) async throws -> ReclaimResult {
        try Self.check(consumer: consumer)
        defer { waiters.wake(.events) }
        return state.reclaimStale(consumer: consumer, olderThan: olderThan, max: max, offering: offering, now: clock.now())
    }

    public func cancel(batch: String) async throws -> Int {
        defer { waiters.wake(.events) }
        return state.cancel(now: clock.now()) { $0.batch == batch }
    }

    public func cancel(jobs: [JobID]) async throws -> Int {
        let ids = Set(jobs)
        defer { waiters.wake(.events) }
        return state.cancel(now: clock.now()) { ids.contains($0.id) }
    }

    public func publish(_ events: [JobEvent]) async throws {
        try Self.checkPublishable(events)
        for event in events { state.append(event) }
        waiters.wake(.events)
    }

    public func readEvents(after cursor: EventCursor, limit: Int, wait: Duration) async throws -> [EventEnvelope] {
        let sequence = try Self.sequence(of: cursor)
        let deadline = clock.now().adding(wait)
        while true {
            let envelopes = state.readEvents(after: sequence, limit: limit)
            if !envelopes.isEmpty || limit <= 0 || clock.now() >= deadline || Task.isCancelled { return envelopes }
            await waitForSignal(.events, until: deadline)
        }
    }

    public func latestEventCursor() async throws -> EventCursor {
        guard state.nextEventSequence > 1 else { return .start }
        return EventCursor(rawValue: String(state.nextEventSequence - 1))
    }

    public func deadLetters(after: String?, limit: Int) async throws -> [DeadLetter] {
        guard let after else { return Array(state.deadLetters.prefix(Swift.max(limit, 0))) }
        // Entries are `d-<sequence>`, appended in sequence order.
        guard let sequence = Self.deadLetterSequence(after) else {
            throw JobQueueError(.invalidCursor, "'\(after.prefix(40))' is not a dead-letter id of the in-memory queue")
        }
        return Array(state.deadLetters.lazy.filter { (Self.deadLetterSequence($0.id) ?? 0) > sequence }.prefix(Swift.max(limit, 0)))
    }

    private static func deadLetterSequence(_ id: String) -> Int? {
        guard id.hasPrefix("d-") else { return nil }
        return Int(id.dropFirst(2))
    }

    public func counts() async throws -> QueueCounts { state.counts }

    public func release(_ delivery: JobDelivery, after delay: Duration) async throws -> Bool {
        let released = state.release(delivery, after: delay, now: clock.now())
        if released { waiters.wake(.work) }
        return released
    }

    public func release(_ delivery: JobDelivery, after delay: Duration, requiring added: [String]) async throws -> Bool {
        let released = state.release(delivery, after: delay, requiring: added, now: clock.now())
        if released { waiters.wake(.work) }
        return released
    }

    public func retryDeadLetters(ids: [String]?) async throws -> Int {
        let requeued = state.retryDeadLetters(ids: ids, now: clock.now())
        if requeued > 0 { waiters.wake(.work) }
        return requeued
    }

    public func purgeDeadLetters() async throws -> Int { state.purgeDeadLetters() }

    public func batchProgress(_ batch: String) async throws -> BatchProgress? { state.batches[batch] }

    public func batchTimes(_ batch: String) async throws -> BatchTimes? { state.batchTimes[batch] }

    public func eventCursor(at time: Timestamp) async throws -> EventCursor {
        let sequence = state.eventSequence(before: time)
        return sequence == 0 ? .start : EventCursor(rawValue: String(sequence))
    }

    public func heartbeat(_ worker: WorkerInfo, ttl: Duration) async throws {
        try Self.check(consumer: worker.name)
        state.heartbeat(worker, ttl: ttl, now: clock.now())
    }

    public func removeWorker(named name: String) async throws { state.workers[name] = nil }

    public func liveWorkers() async throws -> [WorkerInfo] { state.liveWorkers(now: clock.now()) }

    // MARK: Helpers

    private func encode(_ job: Job) throws -> Data {
        do { return try job.jsonData() } catch {
            throw JobQueueError(.encoding, "job \(job.id) could not be encoded: \(error)")
        }
    }

    private static func check(consumer: String) throws {
        guard JobID.isAcceptable(consumer) else {
            throw JobQueueError(.invalidArgument, "a consumer name must be 1–200 bytes without control characters")
        }
    }

    private static func sequence(of cursor: EventCursor) throws -> UInt64 {
        if cursor == .start { return 0 }
        guard let sequence = UInt64(cursor.rawValue) else {
            throw JobQueueError(.invalidCursor, "'\(cursor.rawValue.prefix(40))' is not a cursor of the in-memory queue")
        }
        return sequence
    }

    /// Suspends until `wake(kind)` is called, `deadline` passes on the queue's clock, or the task is cancelled.
    private func waitForSignal(_ kind: MemoryQueueWaiters.Kind, until deadline: Timestamp) async {
        let id = waiters.makeID()
        let clock = self.clock
        let timer = Task {
            try? await clock.sleep(until: deadline)
            self.resumeWaiter(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters.register(id, kind: kind, continuation: continuation)
            }
        } onCancel: {
            Task { await self.resumeWaiter(id) }
        }
        timer.cancel()
    }

    private func resumeWaiter(_ id: UInt64) { waiters.resume(id) }
}
