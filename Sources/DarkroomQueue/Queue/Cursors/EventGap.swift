/// Events the stream no longer held when a reader asked for them: the stream was trimmed past the
/// reader's position while it was away or behind. `EventSource` reports one in-band
/// (`EventItem.gap`) before the first event read after the hole; the coordinator writes it into its
/// log as a `gap` record.
public struct EventGap: Sendable, Hashable {
    /// The reader's position: the last event it had before the gap.
    public var after: EventCursor
    /// The first event the stream still held after the checkpoint.
    public var before: EventCursor
    /// How many events were lost, when the driver's cursors are dense (the in-memory queue's
    /// sequence numbers); nil when they cannot be counted (Redis stream ids are timestamps).
    public var missing: Int?

    public init(after: EventCursor, before: EventCursor, missing: Int?) {
        self.after = after
        self.before = before
        self.missing = missing
    }
}
