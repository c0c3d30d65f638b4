/// How far a batch has come: how many jobs were enqueued into it and how many ended each way.
/// `darkroom wait` compares these with `total` to know when a batch is done.
public struct BatchProgress: Sendable, Hashable, Codable {
    /// Jobs enqueued into the batch (new ids only: an idempotent re-enqueue does not count).
    public var total: Int
    public var succeeded: Int
    /// Ended with `failed` and `willRetry: false`.
    public var failed: Int
    public var dead: Int
    public var cancelled: Int

    public init(total: Int = 0, succeeded: Int = 0, failed: Int = 0, dead: Int = 0, cancelled: Int = 0) {
        self.total = total
        self.succeeded = succeeded
        self.failed = failed
        self.dead = dead
        self.cancelled = cancelled
    }

    /// Jobs that have their terminal event.
    public var finished: Int { succeeded + failed + dead + cancelled }
    /// Jobs still queued, delayed or running.
    public var remaining: Int { max(total - finished, 0) }
    /// Every job has ended.
    public var isComplete: Bool { finished >= total }
    /// Every job has ended, and all of them succeeded.
    public var allSucceeded: Bool { isComplete && succeeded == total }
}
