import DarkroomQueue

/// What an `EventSource` hands its consumer: an event, or a note about events it will not get,
/// in stream order — a note comes right before the first event delivered after the loss, so a
/// consumer always knows where in the stream something went missing.
public enum EventItem: Sendable, Hashable {
    /// The next event of the stream.
    case event(EventEnvelope)
    /// The stream was trimmed past the source's position (while it was disconnected, or behind):
    /// the events between `gap.after` and `gap.before` may be gone. Any policy.
    case gap(EventGap)
    /// `.dropOldest` only: the consumer fell behind and the source discarded events it had read.
    case dropped(EventDrop)
    /// Nothing new arrived within the source's `pollWait` (only when `Configuration.idleNotices`
    /// is on): the consumer is caught up at this cursor, and may do periodic work.
    case idle(EventCursor)

    /// The event, for `.event`; nil for notes.
    public var envelope: EventEnvelope? {
        if case .event(let envelope) = self { return envelope }
        return nil
    }
}

/// Events a `.dropOldest` source read and then discarded because its consumer was too slow. The
/// count is exact: every event read is either delivered or counted in exactly one drop.
public struct EventDrop: Sendable, Hashable {
    /// How many events were discarded.
    public var count: Int
    /// The last cursor the consumer was handed before them (the start cursor if none yet).
    public var after: EventCursor
    /// The cursor of the event delivered right after this notice.
    public var before: EventCursor

    public init(count: Int, after: EventCursor, before: EventCursor) {
        self.count = count
        self.after = after
        self.before = before
    }
}
