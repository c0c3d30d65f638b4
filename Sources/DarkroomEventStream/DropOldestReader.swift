import Synchronization

/// `EventBufferPolicy.dropOldest(limit:)`: a reading task keeps up with the stream into a
/// `DropOldestBuffer` of at most `limit` events, and the consumer's `next()` takes from it. The
/// task is cancelled when the consumer's task is cancelled or the iterator is dropped.
final class DropOldestReader: Sendable {
    /// Internal for tests, which watch it outlive its reader.
    let buffer: DropOldestBuffer
    private let task: Task<Void, Never>

    init(reader: EventPageReader, limit: Int) {
        let buffer = DropOldestBuffer(limit: limit)
        self.buffer = buffer
        task = Task {
            var reader = reader
            do {
                while let page = try await reader.nextPage() {
                    guard buffer.append(page, idleAt: reader.cursor) else { break }
                }
                buffer.finish(throwing: nil)
            } catch {
                buffer.finish(throwing: error)
            }
        }
    }

    deinit { stop() }

    func next() async throws -> EventItem? {
        if Task.isCancelled {
            stop()
            return nil
        }
        if let ready = try buffer.takeIfReady() { return ready.item }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                buffer.take(resuming: continuation)
            }
        } onCancel: {
            stop()
        }
    }

    var statistics: EventSourceStatistics { buffer.statistics }

    /// Ends the sequence: the reading task is cancelled, the buffer emptied, a waiting `next()`
    /// returns nil.
    private func stop() {
        task.cancel()
        buffer.cancel()
    }
}
