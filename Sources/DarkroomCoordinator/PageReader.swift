import DarkroomQueue

/// Reads pages of the stream for one reader, one page ahead: while the reader writes page N (to
/// the log, or into the projections — the slow part, much of it inside Redis), page N+1 is already
/// being read and decoded. At most one page is in flight, so memory stays bounded by two pages.
///
/// Not thread-safe: one reader's loop owns it.
struct PageReader {
    let queue: any JobQueueDriver
    let pageSize: Int
    let wait: Duration
    private var ahead: (after: EventCursor, read: Task<[EventEnvelope], any Error>)?

    init(queue: any JobQueueDriver, pageSize: Int, wait: Duration) {
        self.queue = queue
        self.pageSize = max(pageSize, 1)
        self.wait = wait
    }

    /// The page after `cursor`: the one read ahead when it was read after the same cursor, else a
    /// fresh read. A non-empty page starts the read of the next one.
    mutating func page(after cursor: EventCursor) async throws -> [EventEnvelope] {
        let page: [EventEnvelope]
        if let ahead, ahead.after == cursor {
            self.ahead = nil
            page = try await ahead.read.value
        } else {
            discard()
            page = try await queue.readEvents(after: cursor, limit: pageSize, wait: wait)
        }
        if let last = page.last?.cursor {
            let (queue, pageSize, wait) = (queue, pageSize, wait)
            ahead = (last, Task { try await queue.readEvents(after: last, limit: pageSize, wait: wait) })
        }
        return page
    }

    /// Drops the page read ahead (the reader's position moved elsewhere, or it stops).
    mutating func discard() {
        ahead?.read.cancel()
        ahead = nil
    }
}
