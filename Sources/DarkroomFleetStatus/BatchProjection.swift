import DarkroomQueue

/// The coordinator's fields of a batch, kept in the same record as the batch's counters (Redis:
/// the `{p}:batch:<name>` hash). One writer per field: `total` and the terminal counters
/// (`BatchProgress`) belong to the queue's own scripts, these to the coordinator.
public struct BatchProjection: Sendable, Hashable, Codable {
    /// Jobs a worker has started and not yet ended, as of the coordinator's checkpoint.
    public var running: Int
    /// Jobs neither ended nor running (queued, delayed or waiting for a retry), as of the checkpoint.
    public var queued: Int
    /// Median time from a job's start to its end, in milliseconds (from a histogram whose
    /// buckets are 10 % wide, so within 10 %); nil before the first job ended.
    public var p50Milliseconds: Double?
    /// 95th percentile of the same.
    public var p95Milliseconds: Double?

    public init(running: Int, queued: Int, p50Milliseconds: Double?, p95Milliseconds: Double?) {
        self.running = running
        self.queued = queued
        self.p50Milliseconds = p50Milliseconds
        self.p95Milliseconds = p95Milliseconds
    }
}
