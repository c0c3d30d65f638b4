import DarkroomQueue
import DarkroomSystem

/// The bounded buffer between a `.dropOldest` source's reading task and its consumer.
///
/// It holds at most `limit` events. When a new event arrives at a full buffer the oldest is
/// discarded, and the discard is recorded on the event that is now oldest: the consumer gets
/// `.dropped(count, after: last delivered, before: that event)` right before it, so the count is
/// exact and sits where the hole is. Gap notes ride the same way, on the first event read after
/// the gap, and move forward with the drops. Every event read is delivered or counted once.
final class DropOldestBuffer: Sendable {
    /// A buffered event with the notes that precede it.
    private struct Entry {
        var envelope: EventEnvelope
        var gaps: [EventGap] = []
        var dropped = 0
    }

    /// What `takeIfReady` found: an item, or nil for the end of the sequence.
    struct Ready {
        var item: EventItem?
    }

    private struct State {
        let limit: Int
        var entries = FIFO<Entry>()
        /// Items of the entry being handed out (its notes, then its event), last first.
        var staged: [EventItem] = []
        /// An `.idle` note waiting for a caught-up consumer.
        var idle: EventCursor?
        /// The cursor the consumer saw last (the resolved start before any event).
        var delivered: EventCursor?
        var waiter: CheckedContinuation<EventItem?, any Error>?
        /// The reading task has ended (`failure` says why when it was an error); or the consumer left.
        var finished = false
        var cancelled = false
        var failure: (any Error)?
        var statistics = EventSourceStatistics()

        /// The next item for the consumer, if one is ready.
        mutating func take() -> EventItem? {
            if let item = staged.popLast() { return item }
            guard let entry = entries.popFirst() else {
                defer { idle = nil }
                return idle.map(EventItem.idle)
            }
            statistics.buffered = entries.count
            let after = delivered ?? .start
            delivered = entry.envelope.cursor
            var items = entry.gaps.map(EventItem.gap)
            if entry.dropped > 0 {
                items.append(.dropped(EventDrop(count: entry.dropped, after: after, before: entry.envelope.cursor)))
            }
            items.append(.event(entry.envelope))
            staged = items.reversed()
            return staged.popLast()
        }

        /// The end for a consumer with nothing left to take: the reader's error, once, then nil.
        mutating func end() throws -> EventItem? {
            if let failure {
                self.failure = nil
                throw failure
            }
            return nil
        }
    }

    private let state: Locked<State>

    init(limit: Int) {
        state = Locked(State(limit: Swift.max(limit, 1)))
    }

    /// Adds a page read by the reading task, discarding the oldest events beyond the limit.
    /// Returns false once the consumer has gone, so the reader stops.
    func append(_ page: EventPageReader.Page, idleAt cursor: EventCursor) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            if state.delivered == nil { state.delivered = page.after }
            if page.envelopes.isEmpty {
                if state.entries.isEmpty { state.idle = cursor }
            } else {
                state.idle = nil
                var gaps = page.gap.map { [$0] } ?? []
                for envelope in page.envelopes {
                    var entry = Entry(envelope: envelope, gaps: gaps)
                    gaps = []
                    if state.entries.count == state.limit, let oldest = state.entries.popFirst() {
                        // The oldest goes; its notes and the discard move to the event after it.
                        let carry = { (next: inout Entry) in
                            next.gaps = oldest.gaps + next.gaps
                            next.dropped += oldest.dropped + 1
                        }
                        if state.entries.isEmpty { carry(&entry) } else { state.entries.updateFirst(carry) }
                    }
                    state.entries.append(entry)
                    state.statistics.read += 1
                }
                state.statistics.buffered = state.entries.count
                state.statistics.peak = Swift.max(state.statistics.peak, state.entries.count)
            }
            if let waiter = state.waiter, let item = state.take() {
                state.waiter = nil
                waiter.resume(returning: item)
            }
            return true
        }
    }

    /// The reading task ended, with `error` when it failed.
    func finish(throwing error: (any Error)?) {
        state.withLock { state in
            state.finished = true
            state.statistics.readerStopped = true
            if !state.cancelled { state.failure = error }
            guard let waiter = state.waiter else { return }
            state.waiter = nil
            waiter.resume(with: Result { try state.end() })
        }
    }

    /// The consumer left: drop what is held, end a waiting `next()`.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.entries.removeAll()
            state.staged = []
            state.idle = nil
            state.statistics.buffered = 0
            state.waiter?.resume(returning: nil)
            state.waiter = nil
        }
    }

    /// An item, or the end, when one is ready without waiting; nil when the consumer must wait.
    func takeIfReady() throws -> Ready? {
        try state.withLock { state in
            if state.cancelled { return Ready(item: nil) }
            if let item = state.take() { return Ready(item: item) }
            return state.finished ? Ready(item: try state.end()) : nil
        }
    }

    /// Resumes `continuation` with the next item or the end, now or when the reader brings one.
    func take(resuming continuation: CheckedContinuation<EventItem?, any Error>) {
        state.withLock { state in
            if state.cancelled { return continuation.resume(returning: nil) }
            if let item = state.take() { return continuation.resume(returning: item) }
            if state.finished { return continuation.resume(with: Result { try state.end() }) }
            state.waiter = continuation
        }
    }

    var statistics: EventSourceStatistics { state.withLock { $0.statistics } }
}
