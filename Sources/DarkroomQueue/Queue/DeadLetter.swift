import Foundation

/// An entry that left the queue without an outcome a worker could give it: deliveries or retries
/// exhausted, a record of an unknown version, or garbage.
public struct DeadLetter: Sendable, Hashable {
    /// The dead-letter entry's own id (Redis: its id in the dead-letter stream).
    public var id: String
    /// When it was dead-lettered.
    public var at: Timestamp
    /// The job, when the entry was one this build can read.
    public var job: Job?
    /// The entry exactly as it was queued, so `dlq retry` can requeue it and people can inspect garbage.
    public var payload: Data
    /// Why it is here: the last error of the job, or a `queue.*` code.
    public var error: JobError

    public init(id: String, at: Timestamp, job: Job?, payload: Data, error: JobError) {
        self.id = id
        self.at = at
        self.job = job
        self.payload = payload
        self.error = error
    }
}

/// How much work a queue holds, for `status`, metrics and tests.
public struct QueueCounts: Sendable, Hashable {
    /// Jobs ready to hand out, per priority.
    public var ready: [JobPriority: Int]
    /// Jobs waiting for their `notBefore` (delays and retries).
    public var delayed: Int
    /// Entries delivered and not yet acknowledged.
    public var pending: Int
    /// Entries in the dead-letter queue.
    public var deadLettered: Int

    /// When the oldest ready job of each priority became ready (Redis: its stream entry's time,
    /// i.e. when it was enqueued, promoted from the delayed set or handed back); a priority with
    /// no ready job is absent. How long that job has waited is the priority's lag. Empty from the
    /// in-memory queue, which keeps no such time.
    public var oldestReady: [JobPriority: Timestamp]

    public init(
        ready: [JobPriority: Int], delayed: Int, pending: Int, deadLettered: Int, oldestReady: [JobPriority: Timestamp] = [:]
    ) {
        self.ready = ready
        self.delayed = delayed
        self.pending = pending
        self.deadLettered = deadLettered
        self.oldestReady = oldestReady
    }

    /// All ready jobs.
    public var readyTotal: Int { ready.values.reduce(0, +) }
}
