/// A queue that can hand a job back with more requirements than it was enqueued with: for a worker
/// that finds out only while running a job that it needs a capability no enqueue could foresee
/// (its source is HEIC, and this worker has no HEIC module: `decode:heic`).
public protocol RequirementAmendingQueue: Sendable {
    /// Like `JobQueueDriver.release`, with `requiring` added to the job's `requires` (kept
    /// canonical: sorted, without duplicates): the job is queued again as the same attempt, without
    /// an event, not before `after` has passed, and is handed only to a consumer that offers its
    /// new requirements. Returns false, doing nothing, when the entry is no longer pending or is
    /// leased to another consumer.
    func release(_ delivery: JobDelivery, after: Duration, requiring: [String]) async throws -> Bool
}

extension Job {
    /// This job requiring `added` besides what it already requires.
    public func requiring(_ added: [String]) -> Job {
        var job = self
        job.requires = Capabilities.canonical((requires ?? []) + added)
        return job
    }
}
