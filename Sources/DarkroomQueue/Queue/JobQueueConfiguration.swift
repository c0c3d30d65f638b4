/// Settings every driver honours.
public struct JobQueueConfiguration: Sendable, Hashable {
    /// How long a delivered job may stay pending without an acknowledgement or `extendLease`
    /// before `reclaimStale` hands it to another consumer. Default 30 s (BullMQ's stalled-job check).
    public var visibilityTimeout: Duration {
        didSet { visibilityTimeout = max(visibilityTimeout, .milliseconds(1)) }
    }
    /// The most attempts a job gets, counting delayed retries and redeliveries after a worker
    /// vanished. Default 5. The next attempt beyond it is not made: the job is dead-lettered.
    public var maxAttempts: Int {
        didSet { maxAttempts = max(maxAttempts, 1) }
    }
    /// About how many events the event stream keeps (Redis: `XADD … MAXLEN ~ N`). Default 100,000.
    /// Older events are dropped; jobs are never dropped by trimming.
    public var eventRetention: Int {
        // Also when set after `init`: `XADD … MAXLEN ~ 0` or a negative length would make the
        // scripts that publish terminal events fail.
        didSet { eventRetention = max(eventRetention, 1) }
    }

    public init(visibilityTimeout: Duration = .seconds(30), maxAttempts: Int = 5, eventRetention: Int = 100_000) {
        // Clamped rather than trapping: these come from flags and environment variables.
        self.visibilityTimeout = max(visibilityTimeout, .milliseconds(1))
        self.maxAttempts = max(maxAttempts, 1)
        self.eventRetention = max(eventRetention, 1)
    }
}
