/// An event cursor as a comparable position, for the two drivers' cursor texts: Redis stream ids
/// (`<ms>-<seq>`) and the in-memory queue's sequence numbers (`<n>`, dense: one per event).
///
/// Package-wide rather than public: it reads driver-specific cursor text, which callers outside
/// Darkroom must treat as opaque. `EventSource`, the coordinator's event log and its HTTP side (ordering a client's resume point
/// against live events) use it.
package struct StreamPosition: Comparable, Sendable {
    package var major: UInt64
    package var minor: UInt64
    /// True for a plain sequence number, where consecutive events differ by exactly 1.
    package var isDense: Bool

    package init?(_ cursor: EventCursor) {
        let parts = cursor.rawValue.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let major = UInt64(parts[0]) else { return nil }
        guard let minor = parts.count == 2 ? UInt64(parts[1]) : 0 else { return nil }
        self.major = major
        self.minor = minor
        isDense = parts.count == 1
    }

    package static func < (lhs: StreamPosition, rhs: StreamPosition) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }

    /// The gap between a reader's last event (`checkpoint`) and the first event read after it, if any.
    ///
    /// Dense cursors count it exactly. Otherwise the stream is asked for its oldest retained event
    /// (after the read, so trimming only moves it later): if that lies beyond the checkpoint, the
    /// checkpoint's entry was trimmed and events between it and `first` may have gone with it —
    /// how many cannot be known from stream ids, so `missing` is nil.
    package static func gap(
        after checkpoint: EventCursor, first: EventCursor, oldestRetained: () async throws -> EventCursor?
    ) async rethrows -> EventGap? {
        guard let last = StreamPosition(checkpoint), let next = StreamPosition(first) else { return nil }
        if last.isDense, next.isDense {
            let missing = next.major > last.major ? next.major - last.major - 1 : 0
            return missing > 0 ? EventGap(after: checkpoint, before: first, missing: Int(clamping: missing)) : nil
        }
        guard let oldest = try await oldestRetained().flatMap(StreamPosition.init), oldest > last else { return nil }
        return EventGap(after: checkpoint, before: first, missing: nil)
    }
}
