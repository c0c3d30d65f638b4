/// The event stream as an `AsyncSequence`, built on `readEvents` so every driver gets it.
/// Pull-based: nothing is fetched ahead of what the consumer asks for beyond one page, so a slow
/// follower never makes a buffer grow.
public struct JobEventSequence: AsyncSequence, Sendable {
    public typealias Element = EventEnvelope

    let driver: any JobQueueDriver
    let cursor: EventCursor
    let pageSize: Int
    let pollWait: Duration

    public func makeAsyncIterator() -> Iterator {
        Iterator(driver: driver, cursor: cursor, pageSize: Swift.max(pageSize, 1), pollWait: pollWait)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let driver: any JobQueueDriver
        var cursor: EventCursor
        let pageSize: Int
        let pollWait: Duration
        var page: [EventEnvelope] = []
        var index = 0

        /// The next event, waiting for one as long as it takes; nil once the task is cancelled.
        public mutating func next() async throws -> EventEnvelope? {
            while index == page.count {
                if Task.isCancelled { return nil }
                page = try await driver.readEvents(after: cursor, limit: pageSize, wait: pollWait)
                index = 0
            }
            let envelope = page[index]
            index += 1
            cursor = envelope.cursor
            return envelope
        }
    }
}
