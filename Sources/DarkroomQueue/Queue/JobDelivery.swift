/// A driver-specific handle on one queued entry, e.g. `high 1700000000000-0` for Redis (stream and
/// entry id). Callers treat it as opaque and only hand it back to the driver that made it.
public struct DeliveryTag: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// A job handed to a consumer: it now holds a lease on it until it acknowledges, retries or
/// dead-letters it, or until the lease goes stale after the visibility timeout.
public struct JobDelivery: Sendable, Hashable {
    /// The entry this delivery is of. Two deliveries of the same entry (after a reclaim) share it.
    public var tag: DeliveryTag
    /// The job record.
    public var job: Job
    /// The consumer (worker) the entry was delivered to.
    public var consumer: String
    /// How many times this entry has been delivered: 1 on first delivery, +1 per reclaim.
    public var deliveryCount: Int

    public init(tag: DeliveryTag, job: Job, consumer: String, deliveryCount: Int) {
        self.tag = tag
        self.job = job
        self.consumer = consumer
        self.deliveryCount = deliveryCount
    }

    /// The attempt this delivery is: the job's `attempt` plus the redeliveries of this entry.
    /// Compared with `maxAttempts` to decide between retry and dead letter.
    public var attempt: Int { job.attempt + deliveryCount - 1 }
}

/// How a worker finished a job, for `acknowledge`.
public enum JobOutcome: Sendable, Hashable {
    /// The result is stored; publishes `succeeded`.
    case succeeded(JobResult)
    /// A permanent failure (bad input, bad chain, limits, 4xx); publishes `failed` with `willRetry: false`.
    case failed(JobError)
}

/// What `retry` did.
public enum RetryDisposition: Sendable, Hashable {
    /// Re-enqueued as the next attempt, not handed out before the given time; `failed` with
    /// `willRetry: true` was published.
    case scheduled(at: Timestamp)
    /// The delivery was the last allowed attempt: the job was dead-lettered and `dead` published.
    case deadLettered
    /// The entry was no longer pending (already finished by another delivery): nothing happened.
    case notPending
}

/// What `reclaimStale` did.
public struct ReclaimResult: Sendable, Hashable {
    /// Stale entries now leased to the calling consumer, delivery count incremented.
    public var deliveries: [JobDelivery]
    /// Stale entries that had used up their attempts and were dead-lettered instead.
    public var deadLettered: Int

    public init(deliveries: [JobDelivery] = [], deadLettered: Int = 0) {
        self.deliveries = deliveries
        self.deadLettered = deadLettered
    }
}
