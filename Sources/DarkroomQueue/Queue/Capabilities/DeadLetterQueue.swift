/// A queue whose dead letters can be listed, queued again and purged (`darkroom dlq`). What lands
/// there, and when, is the core `JobQueueDriver` contract (`deadLetter`, `retry`, `reclaimStale`).
public protocol DeadLetterQueue: Sendable {
    /// Up to `limit` dead letters, oldest first, after the entry with id `after` (nil: from the
    /// oldest), so a listing pages by the last id it got. An id no entry has any more (retried or
    /// purged since) still places the page: the entries after it in the queue's order. Throws
    /// `JobQueueError.invalidCursor` for an id this queue never makes.
    func deadLetters(after: String?, limit: Int) async throws -> [DeadLetter]

    /// Queues dead letters again, as fresh first attempts: those with the given ids, or all of them
    /// when `ids` is nil. Garbage (no readable job) stays. The job's batch counts it as pending
    /// again (its `dead` no longer counts), and it will end with a new terminal event. Returns how
    /// many were queued.
    func retryDeadLetters(ids: [String]?) async throws -> Int

    /// Deletes every dead letter; returns how many.
    func purgeDeadLetters() async throws -> Int
}

extension DeadLetterQueue {
    /// Up to `limit` dead letters, oldest first.
    public func deadLetters(limit: Int) async throws -> [DeadLetter] {
        try await deadLetters(after: nil, limit: limit)
    }
}
