import DarkroomQueue

/// Events the stream no longer held when the coordinator asked for them: written into the log as
/// a `gap` record in front of the first event read after them.
public struct EventGap: Sendable, Hashable {
    /// The log's checkpoint: the last event the log holds before the gap.
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
