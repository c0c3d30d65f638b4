/// A queue that can drop jobs not yet handed out (`darkroom cancel`). Each dropped job gets its one
/// terminal event, `cancelled`, so the exactly-once rule of `JobQueueDriver` still holds.
public protocol CancellableJobQueue: Sendable {
    /// Drops the batch's ready and delayed jobs, publishing one `cancelled` event each. Pending
    /// jobs are not affected: they finish normally. Returns how many were dropped.
    func cancel(batch: String) async throws -> Int

    /// Drops these ready or delayed jobs, like `cancel(batch:)`. Unknown or pending ids are skipped.
    func cancel(jobs: [JobID]) async throws -> Int
}
