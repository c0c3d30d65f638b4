/// The job queue contract's core: enqueue, the delivery lifecycle (reserve, finish, hand back,
/// extend, reclaim) and the event stream — what a worker and an event follower need. Operations
/// only some callers need are capability protocols beside it: `DeadLetterQueue`,
/// `CancellableJobQueue`, `WorkerRegistry` and `ProgressReportingQueue`; a caller asks for the
/// composition it uses (`any JobQueueDriver & WorkerRegistry`). `MemoryQueue` (in-process) and
/// `RedisStreamsQueue` (Redis Streams) implement all of them and both must pass the shared contract
/// suite (`JobQueueContract` in the tests).
///
/// ## Model
/// - An **entry** is a queued job record (JSON, see `Job`). It is *ready* (waiting to be handed
///   out), *delayed* (its `notBefore` is in the future), *pending* (delivered to a consumer and not
///   yet finished), or gone (finished, dead-lettered or cancelled).
/// - A **consumer** is a worker's name (`host:pid` or a given name, 1–200 bytes). Events name the
///   consumer as their `worker`.
/// - A **delivery** leases a pending entry to one consumer. The lease goes stale when the entry has
///   been pending for `visibilityTimeout` without `extendLease`; `reclaimStale` then moves it to
///   the caller with the delivery count incremented (Redis: `XAUTOCLAIM`).
/// - An entry is **finished** by the first of `acknowledge`, `retry` or `deadLetter` made while it
///   is still pending, whichever delivery of it that call comes from; the call publishes the
///   job's event atomically with removing the entry (Redis: one Lua script doing `XACK` + `XADD`
///   only when `XPENDING` still lists the entry). Later calls for the same entry do nothing and
///   return false / `.notPending`. Hence **every job gets exactly one terminal event**, however
///   often it is delivered.
/// - **Attempts**: a delivery's `attempt` = `job.attempt + deliveryCount - 1`. No attempt beyond
///   `maxAttempts` is ever handed out: `reclaimStale` dead-letters such entries (error
///   `queue.stalled`, naming the last reported error) and `retry` of the last allowed attempt
///   dead-letters instead of rescheduling.
///
/// Delivery is at least once: a consumer that dies mid-job loses nothing, and a job may run twice
/// (results are idempotent; only one run's event is published).
public protocol JobQueueDriver: Sendable {
    /// The timeouts and limits this driver applies.
    var configuration: JobQueueConfiguration { get }

    /// Adds jobs. A job whose id the queue already knows (queued, delayed, pending, finished,
    /// cancelled or dead) is skipped, so enqueueing is idempotent; duplicate ids within `jobs`
    /// count once. A skipped job stays counted once, in the batch it was first enqueued into: a
    /// repeat into that batch leaves the batch's counts as they are (so `batchProgress` reports the
    /// job with its real outcome), and a repeat into another batch adds nothing to that one. A job with `notBefore` in the future is delayed until then. Publishes one
    /// `batchEnqueued` event per batch that received new jobs, with how many — one per batch per
    /// call, however many jobs the call holds. Returns the number
    /// of new jobs. Throws `.invalidArgument` (and adds nothing) if any job has a `problem`.
    func enqueue(_ jobs: [Job]) async throws -> Int

    /// `enqueue`, calling `progress` with how many of `jobs` have been sent so far as a long call
    /// goes on (from the calling task, between round trips; the last call reports them all). Still
    /// one `batchEnqueued` per batch for the whole call. The default implementation enqueues then
    /// reports once.
    func enqueue(_ jobs: [Job], progress: (@Sendable (Int) -> Void)?) async throws -> Int

    /// `enqueue(_:progress:)`, saying where the skipped jobs are: how many the queue already knew,
    /// and which of them it knows in a batch other than the one they were enqueued into (read in
    /// the same atomic step that skips them). The default implementation, for wrappers that cannot
    /// tell, reports every skipped job as known in its own batch.
    func enqueueReport(_ jobs: [Job], progress: (@Sendable (Int) -> Void)?) async throws -> EnqueueReport

    /// Leases up to `max` ready jobs to `consumer`, highest priority first and first-in-first-out
    /// within a priority; due delayed jobs become ready first. Never returns more than `max`
    /// (back-pressure: take only what you can start now); `max <= 0` returns nothing at once.
    /// When nothing is ready, waits up to `wait` for work (returns early when the task is cancelled).
    ///
    /// Entries that are not jobs of this build are not returned: garbage is dead-lettered at once
    /// (`queue.garbage`, no event — it belongs to no batch); a record of an unknown `version` stays
    /// pending so a newer worker can reclaim it, and is dead-lettered once its deliveries exceed
    /// `maxAttempts` (`queue.unknown-version`, with a `dead` event when its id and batch can be read).
    ///
    /// Only jobs whose `requires` are all in `offering` are handed out (`Capabilities`); the rest
    /// wait, in order, for a consumer that offers them. Priority still comes first: a consumer
    /// takes its ready high jobs of every requirement set it satisfies before any normal one.
    func reserve(consumer: String, max: Int, wait: Duration, offering: Set<String>) async throws -> [JobDelivery]

    /// Finishes a pending entry with its outcome and publishes the terminal event (`succeeded`, or
    /// `failed` with `willRetry: false`) naming `delivery.consumer` — both or neither. Returns
    /// false, publishing nothing, if the entry is no longer pending.
    func acknowledge(_ delivery: JobDelivery, outcome: JobOutcome) async throws -> Bool

    /// Group commit: `acknowledge` for many deliveries in one call (Redis: one round trip). Each
    /// entry is finished exactly as the single form would finish it — checked as still pending
    /// and acknowledged atomically with its own terminal event and batch counter — so the result
    /// is one Bool per outcome, in order: false for an entry no longer pending (nothing published
    /// for it), whatever happened to the others. Entries are finished in the order given.
    ///
    /// Throws when the driver could not be asked at all (Redis unreachable). A throw may come after
    /// some entries were finished: calling again with the same outcomes is safe, those answer
    /// false the second time (at least once; never a second terminal event).
    ///
    /// The default implementation calls the single form for each outcome in turn.
    func acknowledge(_ outcomes: [(delivery: JobDelivery, outcome: JobOutcome)]) async throws -> [Bool]

    /// A worker's whole round trip in one call (BullMQ's `moveToFinished`): appends `events`
    /// (`started`, checked as `publish` checks them) before anything else, so a job's `started`
    /// precedes its terminal event; then finishes `outcomes` exactly as `acknowledge(_:)` does;
    /// then, when `next` asks for jobs, reserves up to `next.max` ready ones as `reserve` does,
    /// without waiting.
    ///
    /// Redis: one script run (events, acknowledgements and the reservation from the same key
    /// prefix, so from one hash slot). A throw may come after some of it was done: the
    /// acknowledgements are then safe to send again, and jobs reserved by a call whose answer was
    /// lost stay pending for `next.consumer` until the visibility timeout hands them to another.
    ///
    /// The default implementation makes the three calls in turn (`publish`, `acknowledge`,
    /// `reserve` with no wait), skipping those with nothing to do.
    func acknowledge(
        _ outcomes: [(delivery: JobDelivery, outcome: JobOutcome)], publishing events: [JobEvent], reserving next: NextReservation?
    ) async throws -> AcknowledgedAndReserved

    /// Finishes a pending entry as a transient failure: re-enqueues the job as attempt
    /// `delivery.attempt + 1` with `lastError = error`, not handed out before `after` has passed,
    /// and publishes `failed` with `willRetry: true`. When the delivery was attempt `maxAttempts`
    /// the job is dead-lettered with `error` and `dead` is published instead.
    func retry(_ delivery: JobDelivery, after: Duration, error: JobError) async throws -> RetryDisposition

    /// Finishes a pending entry by moving it to the dead-letter queue with `error` and publishing
    /// `dead`. Returns false, doing nothing, if the entry is no longer pending.
    func deadLetter(_ delivery: JobDelivery, error: JobError) async throws -> Bool

    /// Renews the lease: the entry's idle time restarts, its delivery count does not change.
    /// Returns false when the entry is no longer pending or is now leased to another consumer
    /// (it was reclaimed: the caller's work will not be the one that counts).
    func extendLease(_ delivery: JobDelivery) async throws -> Bool

    /// Leases to `consumer` up to `max` entries that have been pending (since delivery or the last
    /// `extendLease`) for at least `olderThan`, oldest entry first, each with its delivery count
    /// incremented. Entries that would exceed `maxAttempts` are dead-lettered instead, with
    /// `queue.stalled` and a `dead` event naming `consumer`. Any live consumer may call this.
    /// Entries whose job requires a capability outside `offering` are neither claimed nor buried:
    /// they stay stale for a consumer that offers it.
    func reclaimStale(consumer: String, olderThan: Duration, max: Int, offering: Set<String>) async throws -> ReclaimResult

    /// Appends events that no queue operation publishes itself (`started`, `workerOnline`,
    /// `workerOffline`). Throws `.invalidArgument` for an event with a `problem`, and for
    /// `batchEnqueued`, `failed` and terminal events: those come only from `enqueue`, `acknowledge`,
    /// `retry`, `deadLetter`, `reclaimStale` and `cancel`, which is what keeps them exactly-once.
    func publish(_ events: [JobEvent]) async throws

    /// Up to `limit` events after `cursor`, oldest first; `EventCursor.start` reads from the oldest
    /// retained event. When there are none, waits up to `wait` for one. Entries of unknown
    /// version or type are skipped. Throws `.invalidCursor` for a cursor this driver did not make.
    func readEvents(after cursor: EventCursor, limit: Int, wait: Duration) async throws -> [EventEnvelope]

    /// The cursor of the newest event (or `.start` when there is none): read after it to follow
    /// only new events (Redis `$`).
    func latestEventCursor() async throws -> EventCursor

    /// The cursor to read after to see the events published at or after `time` (Redis stream ids
    /// are millisecond timestamps, so this is exact there).
    func eventCursor(at time: Timestamp) async throws -> EventCursor

    // MARK: Handing back

    /// Hands a pending entry back without using up an attempt and without an event: the job is
    /// queued again as the same attempt, not handed out before `after` has passed. For a worker
    /// that cannot run the job (it lacks a processor the chain names), so a worker that can picks
    /// it up. Returns false if the entry is no longer pending or is leased to another consumer.
    func release(_ delivery: JobDelivery, after: Duration) async throws -> Bool

}

extension JobQueueDriver {
    public func enqueue(_ jobs: [Job], progress: (@Sendable (Int) -> Void)?) async throws -> Int {
        let added = try await enqueue(jobs)
        progress?(jobs.count)
        return added
    }

    public func enqueueReport(_ jobs: [Job], progress: (@Sendable (Int) -> Void)?) async throws -> EnqueueReport {
        let added = try await enqueue(jobs, progress: progress)
        return EnqueueReport(added: added, known: jobs.count - added)
    }

    public func acknowledge(_ outcomes: [(delivery: JobDelivery, outcome: JobOutcome)]) async throws -> [Bool] {
        var results: [Bool] = []
        results.reserveCapacity(outcomes.count)
        for (delivery, outcome) in outcomes {
            results.append(try await acknowledge(delivery, outcome: outcome))
        }
        return results
    }

    public func acknowledge(
        _ outcomes: [(delivery: JobDelivery, outcome: JobOutcome)], publishing events: [JobEvent], reserving next: NextReservation?
    ) async throws -> AcknowledgedAndReserved {
        if !events.isEmpty { try await publish(events) }
        let acknowledged = outcomes.isEmpty ? [] : try await acknowledge(outcomes)
        var reserved: [JobDelivery] = []
        if let next, next.max > 0 {
            reserved = try await reserve(consumer: next.consumer, max: next.max, wait: .zero, offering: next.offering)
        }
        return AcknowledgedAndReserved(acknowledged: acknowledged, reserved: reserved)
    }

    /// `reclaimStale` with the configured visibility timeout.
    public func reclaimStale(consumer: String, max: Int, offering: Set<String> = []) async throws -> ReclaimResult {
        try await reclaimStale(consumer: consumer, olderThan: configuration.visibilityTimeout, max: max, offering: offering)
    }

    /// `reclaimStale` for a consumer that offers no capability: only jobs that require none.
    public func reclaimStale(consumer: String, olderThan: Duration, max: Int) async throws -> ReclaimResult {
        try await reclaimStale(consumer: consumer, olderThan: olderThan, max: max, offering: [])
    }

    /// `reserve` for a consumer that offers no capability: only jobs that require none.
    public func reserve(consumer: String, max: Int, wait: Duration) async throws -> [JobDelivery] {
        try await reserve(consumer: consumer, max: max, wait: wait, offering: [])
    }
}
