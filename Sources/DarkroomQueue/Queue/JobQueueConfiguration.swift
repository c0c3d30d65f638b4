/// Settings every driver honours.
public struct JobQueueConfiguration: Sendable, Hashable {
    /// How long a delivered job may stay pending without an acknowledgement or `extendLease`
    /// before `reclaimStale` hands it to another consumer. Default 30 s (BullMQ's stalled-job check).
    public var visibilityTimeout: Duration
    /// The most attempts a job gets, counting delayed retries and redeliveries after a worker
    /// vanished. Default 5. The next attempt beyond it is not made: the job is dead-lettered.
    public var maxAttempts: Int
    /// About how many events the event stream keeps (Redis: `XADD … MAXLEN ~ N`). Default 100,000.
    /// Older events are dropped; jobs are never dropped by trimming.
    public var eventRetention: Int

    public init(visibilityTimeout: Duration = .seconds(30), maxAttempts: Int = 5, eventRetention: Int = 100_000) {
        // Clamped rather than trapping: these come from flags and environment variables.
        self.visibilityTimeout = max(visibilityTimeout, .milliseconds(1))
        self.maxAttempts = max(maxAttempts, 1)
        self.eventRetention = max(eventRetention, 1)
    }
}
