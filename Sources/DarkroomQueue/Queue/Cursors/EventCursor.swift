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
    public var event: JobEvent {
        didSet { record = nil }
    }
    /// The event's record exactly as `EventJSONWriter` writes it, when the driver read those very
    /// bytes (the Redis driver keeps the records its fast path accepted): writers of the record —
    /// the event log, the projections — copy it instead of writing it again. Not part of equality.
    package private(set) var record: [UInt8]?

    public init(cursor: EventCursor, event: JobEvent) {
        self.cursor = cursor
        self.event = event
    }

    /// An envelope whose `record` is `event`'s canonical bytes; the caller vouches for that (the
    /// fast reader accepts only bytes that write back identically).
    package init(cursor: EventCursor, event: JobEvent, canonicalRecord: [UInt8]) {
        self.cursor = cursor
        self.event = event
        record = canonicalRecord
    }

    /// `event`'s canonical record: the one read, or freshly written.
    package var canonicalRecord: [UInt8] { record ?? EventJSONWriter.bytes(event) }

    public static func == (lhs: EventEnvelope, rhs: EventEnvelope) -> Bool {
        lhs.cursor == rhs.cursor && lhs.event == rhs.event
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(cursor)
        hasher.combine(event)
    }
}
