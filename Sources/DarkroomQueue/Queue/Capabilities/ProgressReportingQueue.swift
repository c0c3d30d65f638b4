/// A queue that can say how much work is where: its sizes now, and what became of a batch's jobs
/// (`darkroom wait`, `cancel`, `dlq list`). Counted by the queue itself, so the answers stay right
/// when the event stream has been trimmed.
public protocol ProgressReportingQueue: Sendable {
    /// How many entries are ready, delayed, pending and dead.
    func counts() async throws -> QueueCounts

    /// What became of a batch's jobs so far, counted by the same atomic operations that publish the
    /// terminal events (so it stays right when the event stream has been trimmed). Nil when no job
    /// was ever enqueued into `batch` (or its record has expired).
    func batchProgress(_ batch: String) async throws -> BatchProgress?

    /// When the batch's first jobs were enqueued and its latest job ended, written by the same
    /// atomic operations as its counts (and expiring with them). Nil when the batch is unknown, or
    /// the queue does not keep them.
    func batchTimes(_ batch: String) async throws -> BatchTimes?
}

extension ProgressReportingQueue {
    /// A queue that keeps no batch times answers nil: `wait` then reports how long it waited.
    public func batchTimes(_ batch: String) async throws -> BatchTimes? { nil }
}
