import DarkroomQueue
import DarkroomSystem

/// Pages of the event stream read and decoded once for both of the coordinator's readers (the
/// projections and the event log): the coordinator's `share()`.
///
/// Each reader still asks for the page after its own checkpoint, so the two stay independent:
/// after a restart they start from different places, and either may fail and retry alone. A read
/// is shared when the other reader asks for the same place, or for a place inside a page already
/// read (it gets the rest of that page, and from then on the two ask for the same pages).
///
/// The cache holds at most `capacity` pages. A reader that runs ahead waits before dropping a page
/// the other reader has yet to take, so in a long drain the faster reader runs at most `capacity`
/// pages ahead and every page is read once. It waits only for a reader that keeps up: one that
/// has not asked for a page within `stallAfter` (stuck in a retry, say) is not waited for, and
/// reads for itself when it comes back. So a slow reader slows the other by at most
/// `capacity` pages of lead, and a stalled one does not hold it back.
///
/// A read that follows a short page (fewer than `pageSize` events: the readers have caught up)
/// first waits `gather`, so the events of that time arrive as one page: one projection call, one
/// `write` + `fsync` and one `XREAD` for all of them instead of one each at low rates. An event
/// therefore reaches the readers at most `gather` (plus the read) after it was published; a read
/// after a full page (a drain) or after an empty one (the first event after a quiet spell) starts
/// at once.
final class SharedPages: Sendable {
    let queue: any JobQueueDriver
    let pageSize: Int
    let wait: Duration
    let gather: Duration
    let capacity: Int
    let stallAfter: Duration

    private struct Entry {
        let number: Int
        let after: EventCursor
        let read: Task<[EventEnvelope], any Error>
        /// Set when the read finished with events.
        var page: [EventEnvelope]?
    }

    private struct Reader {
        /// Where the reader will ask next: the last cursor of the page it took.
        var next: EventCursor?
        var askedAt: ContinuousClock.Instant
    }

    private struct State {
        var entries: [Entry] = []
        var readers: [String: Reader] = [:]
        var nextNumber = 0
        var closed = false
        /// The last cursor of the latest short page: the read after it gathers first.
        var shortPageEnd: EventCursor?
    }

    private let state = Locked(State())

    init(
        queue: any JobQueueDriver, pageSize: Int, wait: Duration, gather: Duration = .zero, capacity: Int = 8,
        stallAfter: Duration = .seconds(1)
    ) {
        self.queue = queue
        self.pageSize = max(pageSize, 1)
        self.wait = wait
        self.gather = gather
        self.capacity = max(capacity, 1)
        self.stallAfter = stallAfter
    }

    /// The events after `cursor` (up to a page; empty when there are none within `wait`), for the
    /// reader called `reader`, and the read of the page after them started.
    func page(after cursor: EventCursor, for reader: String) async throws -> [EventEnvelope] {
        let page: [EventEnvelope]
        switch try await lookUp(cursor, for: reader) {
        case .ready(let events):
            page = events
        case .reading(let read):
            page = try await withTaskCancellationHandler {
                try await read.value
            } onCancel: {
                read.cancel()
            }
        }
        state.withLock { $0.readers[reader]?.next = page.last?.cursor ?? cursor }
        if let last = page.last?.cursor { _ = state.withLock { startRead(after: last, in: &$0, waiting: false) } }
        return page
    }

    /// Cancels every read in flight; for when both readers stop.
    func close() {
        let reads = state.withLock { state in
            state.closed = true
            defer { state.entries.removeAll() }
            return state.entries.map(\.read)
        }
        for read in reads { read.cancel() }
    }

    private enum Found {
        case ready([EventEnvelope])
        case reading(Task<[EventEnvelope], any Error>)
    }

    /// The cached page after `cursor` (or the rest of one that holds it), else a read started for
    /// it, waiting first while the cache is full of pages the other reader still needs.
    private func lookUp(_ cursor: EventCursor, for reader: String) async throws -> Found {
        while true {
            let found: Found? = state.withLock { state in
                state.readers[reader, default: Reader(next: cursor, askedAt: .now)].askedAt = .now
                state.readers[reader]?.next = cursor
                if let entry = state.entries.first(where: { $0.after == cursor }) {
                    return entry.page.map(Found.ready) ?? .reading(entry.read)
                }
                for entry in state.entries {
                    guard let page = entry.page, let index = page.firstIndex(where: { $0.cursor == cursor }),
                        index + 1 < page.count
                    else { continue }
                    return .ready(Array(page[(index + 1)...]))
                }
                return startRead(after: cursor, in: &state, waiting: true).map(Found.reading)
            }
            if let found { return found }
            // Full of pages the other reader has yet to take: let it catch up a little.
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Starts the read of the page after `cursor` unless one is cached or in flight. When the
    /// cache is full, drops its oldest page unless a reader that keeps up still needs it; then
    /// returns nil (`waiting`) or gives up (a read ahead, which is only worth it when free).
    private func startRead(after cursor: EventCursor, in state: inout State, waiting: Bool) -> Task<
        [EventEnvelope], any Error
    >? {
        guard !state.closed else { return Task { throw CancellationError() } }
        if let entry = state.entries.first(where: { $0.after == cursor }) { return entry.read }
        if state.entries.count >= capacity {
            guard let oldest = state.entries.first, !isNeeded(oldest, state: state) else { return nil }
            state.entries.removeFirst()
        }
        let number = state.nextNumber
        state.nextNumber += 1
        let (queue, pageSize, wait) = (queue, pageSize, wait)
        let pause = cursor == state.shortPageEnd ? gather : .zero
        let read = Task { [weak self] in
            do {
                if pause > .zero { try await Task.sleep(for: pause) }
                let page = try await queue.readEvents(after: cursor, limit: pageSize, wait: wait)
                self?.finished(number, page: page)
                return page
            } catch {
                self?.finished(number, page: [])
                throw error
            }
        }
        state.entries.append(Entry(number: number, after: cursor, read: read))
        return read
    }

    /// Keeps a page with events for the other reader; forgets an empty or failed read, so the
    /// next ask reads again.
    private func finished(_ number: Int, page: [EventEnvelope]) {
        state.withLock { state in
            guard let index = state.entries.firstIndex(where: { $0.number == number }) else { return }
            if page.isEmpty {
                state.entries.remove(at: index)
            } else {
                state.entries[index].page = page
                if page.count < pageSize { state.shortPageEnd = page.last?.cursor }
            }
        }
    }

    /// Whether a reader that asked within `stallAfter` will ask for `entry`'s events next.
    private func isNeeded(_ entry: Entry, state: State) -> Bool {
        let now = ContinuousClock.now
        return state.readers.values.contains { reader in
            guard now - reader.askedAt < stallAfter, let next = reader.next else { return false }
            if entry.after == next { return true }
            guard let page = entry.page, let index = page.firstIndex(where: { $0.cursor == next }) else { return false }
            return index + 1 < page.count
        }
    }
}
