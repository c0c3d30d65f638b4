/// When a batch began and when its latest job ended, kept by the queue beside its counts
/// (`ProgressReportingQueue.batchTimes`), so a batch's duration can be told after it has ended
/// and after its events have been trimmed.
public struct BatchTimes: Sendable, Hashable, Codable {
    /// When the first enqueue that added a job to the batch ran.
    public var enqueuedAt: Timestamp
    /// When the batch's latest terminal event was published (`succeeded`, a final `failed`,
    /// `dead`, `cancelled`); nil before any job ended.
    public var endedAt: Timestamp?

    public init(enqueuedAt: Timestamp, endedAt: Timestamp? = nil) {
        self.enqueuedAt = enqueuedAt
        self.endedAt = endedAt
    }

    /// From the first enqueue to the latest end: the batch's duration once every job has ended
    /// (a job retried from the dead letters later extends it). Nil before any job ended.
    public var duration: Duration? {
        endedAt.map { max($0.duration(since: enqueuedAt), .zero) }
    }
}
