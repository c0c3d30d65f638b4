import DarkroomQueue

/// How far behind one reader the event stream may be trimmed: it remembers the positions of the
/// events the reader has read (one mark every `spacing` events), and answers the newest position
/// that still leaves `retention` read events in the stream. Trimming there (`XTRIM MINID`) never
/// drops an event the reader has not read, and keeps the recent history other followers
/// (`darkroom events`, `wait`) read.
struct TrimPoint: Sendable, Hashable {
    let retention: Int
    let spacing: Int
    private(set) var read = 0
    private var marks: [(ordinal: Int, cursor: EventCursor)] = []

    init(retention: Int) {
        self.retention = max(retention, 1)
        spacing = max(self.retention / 64, 1)
    }

    /// Notes a page the reader has finished with.
    mutating func record(_ page: [EventEnvelope]) {
        for envelope in page {
            read += 1
            if read % spacing == 0 { marks.append((read, envelope.cursor)) }
        }
        // Marks older than the newest trimmable one are never answered again.
        if let newest = marks.lastIndex(where: { $0.ordinal <= read - retention }), newest > 0 {
            marks.removeFirst(newest)
        }
    }

    /// The position to trim before, or nil while the reader has read fewer than `retention`
    /// events since the coordinator started.
    var cursor: EventCursor? {
        marks.last { $0.ordinal <= read - retention }?.cursor
    }

    static func == (lhs: TrimPoint, rhs: TrimPoint) -> Bool {
        lhs.read == rhs.read && lhs.retention == rhs.retention && lhs.marks.map(\.cursor) == rhs.marks.map(\.cursor)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(read)
        hasher.combine(retention)
    }
}
