/// A position in the event stream: events are read strictly after it. Drivers define the text
/// (Redis: a stream entry id like `1700000000000-0`; memory: a sequence number), so a cursor only
/// makes sense to the driver that produced it.
public struct EventCursor: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Before the first retained event, whatever the driver (Redis `0-0`, memory `0`).
    public static let start = EventCursor(rawValue: "0-0")

    public var description: String { rawValue }
}

/// An event with its position in the stream; pass `cursor` to the next `readEvents` call.
public struct EventEnvelope: Sendable, Hashable {
    public var cursor: EventCursor
    public var event: JobEvent

    public init(cursor: EventCursor, event: JobEvent) {
        self.cursor = cursor
        self.event = event
    }
}
