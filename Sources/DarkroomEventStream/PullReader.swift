import DarkroomQueue

/// `EventBufferPolicy.backpressure`: the consumer's `next()` reads a page when the previous one is
/// used up, so nothing is read ahead of demand beyond one page, and a slow consumer slows the reading.
struct PullReader {
    private var reader: EventPageReader
    /// The current page as items (a gap note, then its events), and the next one to hand out.
    private var items: [EventItem] = []
    private var index = 0
    private var ended = false
    /// The most events one page held.
    private var peak = 0

    init(reader: EventPageReader) { self.reader = reader }

    /// The next item; nil once ended. A cancelled task ends it at once, also mid-page, as the
    /// `.dropOldest` reader does.
    mutating func next() async throws -> EventItem? {
        if Task.isCancelled {
            ended = true
            items = []
            index = 0
        }
        while index == items.count {
            guard !ended else { return nil }
            let page: EventPageReader.Page?
            do { page = try await reader.nextPage() } catch {
                ended = true
                throw error
            }
            guard let page else {
                ended = true
                return nil
            }
            items = EventSource.items(page, idleAt: reader.cursor)
            index = 0
            peak = Swift.max(peak, page.envelopes.count)
        }
        defer { index += 1 }
        return items[index]
    }

    var statistics: EventSourceStatistics {
        let buffered = items[index...].count { $0.envelope != nil }
        return EventSourceStatistics(buffered: buffered, peak: peak, read: reader.read)
    }
}

extension EventSource {
    /// A page as the items a consumer sees: its gap note, its events; an empty page is `.idle`.
    static func items(_ page: EventPageReader.Page, idleAt cursor: EventCursor) -> [EventItem] {
        guard !page.envelopes.isEmpty else { return [.idle(cursor)] }
        return (page.gap.map { [.gap($0)] } ?? []) + page.envelopes.map(EventItem.event)
    }
}
