import DarkroomQueue

/// The reading half of an `EventSource`, shared by both policies: resolves the start, reads page
/// after page strictly after the last event read, rides out transient errors with backoff, and
/// finds gaps the stream's trimming left.
struct EventPageReader: Sendable {
    /// One successful read: the events, and the gap found in front of them, if any.
    struct Page: Sendable {
        /// The cursor the read was made after.
        var after: EventCursor
        var gap: EventGap?
        var envelopes: [EventEnvelope]
    }

    let driver: any JobQueueDriver
    let configuration: EventSource.Configuration
    /// Resolved on the first read (`.latest` and `.time` ask the queue, which may be down).
    private var start: EventSource.Start?
    /// The last event read, or the resolved start: the next read is strictly after it.
    private(set) var cursor: EventCursor = .start
    /// Events read so far.
    private(set) var read = 0
    /// Whether the cursor names a position events were really read or handed out at. Not after a
    /// `.time` start: Redis makes that cursor up from the time, and a stream that simply begins
    /// later than it must not look trimmed.
    private var cursorIsPosition = true

    init(driver: any JobQueueDriver, start: EventSource.Start, configuration: EventSource.Configuration) {
        self.driver = driver
        self.start = start
        self.configuration = configuration
    }

    /// The next page, waiting for one when following. An empty page means the stream is caught
    /// up: returned only when following with `idleNotices` on. Nil when the sequence ends: the
    /// task was cancelled, or (not following) everything has been read. Throws an error that is
    /// not transient, or a transient one that outlasted `outageLimit`.
    mutating func nextPage() async throws -> Page? {
        var outage: (start: ContinuousClock.Instant, failures: Int)?
        while !Task.isCancelled {
            do {
                let page = try await readPage()
                if let outage {
                    configuration.onStatus?(.recovered(failures: outage.failures, outage: ContinuousClock.now - outage.start))
                }
                outage = nil
                if !page.envelopes.isEmpty { return page }
                if !configuration.follows { return nil }
                if configuration.idleNotices { return page }
            } catch {
                if Task.isCancelled { return nil }
                guard configuration.isTransient(error) else { throw error }
                let now = ContinuousClock.now
                var current = outage ?? (now, 0)
                current.failures += 1
                outage = current
                if let limit = configuration.outageLimit, now - current.start >= limit { throw error }
                let delay = configuration.backoff.delay(forAttempt: current.failures)
                configuration.onStatus?(.retrying(error: error, attempt: current.failures, delay: delay))
                do { try await Task.sleep(for: delay) } catch { return nil }
            }
        }
        return nil
    }

    /// One attempt: resolve the start if needed, read after the cursor, look for a gap. The cursor
    /// moves only when everything succeeded, so a failed attempt is simply repeated.
    private mutating func readPage() async throws -> Page {
        if let pending = start {
            cursor = try await resolve(pending)
            start = nil
            if case .time = pending { cursorIsPosition = false }
        }
        let wait = configuration.follows ? configuration.pollWait : .zero
        let envelopes = try await driver.readEvents(after: cursor, limit: configuration.pageSize, wait: wait)
        guard let first = envelopes.first, let last = envelopes.last else { return Page(after: cursor, gap: nil, envelopes: []) }
        var gap: EventGap?
        // From `.start` the stream is read from its oldest event: nothing before it was expected.
        if cursor != .start, cursorIsPosition {
            let driver = self.driver
            gap = try await StreamPosition.gap(after: cursor, first: first.cursor) {
                try await driver.readEvents(after: .start, limit: 1, wait: .zero).first?.cursor
            }
        }
        let after = cursor
        cursor = last.cursor
        cursorIsPosition = true
        read += envelopes.count
        return Page(after: after, gap: gap, envelopes: envelopes)
    }

    private func resolve(_ start: EventSource.Start) async throws -> EventCursor {
        switch start {
        case .beginning: return .start
        case .latest: return try await driver.latestEventCursor()
        case .after(let cursor): return cursor
        case .time(let time): return try await driver.eventCursor(at: time)
        }
    }
}
