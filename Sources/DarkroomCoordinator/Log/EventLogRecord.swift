import DarkroomQueue
import Foundation

/// The lines of the event log: JSON, keys in alphabetical order, one record per line.
///
/// - An event: the stream's event record (queue.md's event record) plus `streamId`, its position
///   in the stream (Redis: the entry id; in memory: the sequence number). The event record's own
///   `id` is the event's UUIDv7, which is why the position has a key of its own.
/// - A gap: `{"after","before","missing"?,"type":"gap","version":1}`, the stream ids around
///   events the stream no longer held, and how many when that can be known.
package enum EventLogRecord {
    /// The bytes of `envelopes` (after `gap`, when there is one), each line ending in `\n`.
    package static func lines(_ envelopes: [EventEnvelope], gap: EventGap?) throws -> [UInt8] {
        let encoder = RecordJSON.encoder()
        var bytes: [UInt8] = []
        if let gap {
            bytes += try encoder.encode(GapLine(gap: gap))
            bytes.append(UInt8(ascii: "\n"))
        }
        // By hand (`EventJSONWriter`): byte for byte what `JSONEncoder` would write for
        // `EventLine`, at a fraction of the cost (the log writes every event of the fleet).
        bytes.reserveCapacity(bytes.count + envelopes.count * 360)
        for envelope in envelopes {
            // The record as read, when the driver kept it, is copied rather than written again.
            if let record = envelope.record, EventJSONWriter.write(record: record, streamId: envelope.cursor.rawValue, into: &bytes) {
                // Spliced.
            } else {
                EventJSONWriter.write(envelope.event, streamId: envelope.cursor.rawValue, into: &bytes)
            }
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// What recovery reads from a complete line: the stream id of an event, or a gap record.
    enum Parsed: Equatable {
        case event(EventCursor)
        case gap
    }

    /// Reads one complete line (without its `\n`); nil when it is not a record this log writes.
    static func parse(_ line: some Collection<UInt8>) -> Parsed? {
        guard let head = try? RecordJSON.decoder().decode(Head.self, from: Data(line)) else { return nil }
        if head.type == "gap" { return .gap }
        return head.streamId.map { .event(EventCursor(rawValue: $0)) }
    }

    private struct Head: Decodable {
        var type: String?
        var streamId: String?
    }

    /// The event's own record, then `streamId` in the same JSON object: the line `lines` writes by
    /// hand, as `JSONEncoder` writes it (the tests hold the two to the same bytes).
    struct EventLine: Encodable {
        var envelope: EventEnvelope

        enum CodingKeys: String, CodingKey { case streamId }

        func encode(to encoder: any Encoder) throws {
            try envelope.event.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(envelope.cursor.rawValue, forKey: .streamId)
        }
    }

    private struct GapLine: Encodable {
        var gap: EventGap

        enum CodingKeys: String, CodingKey { case after, before, missing, type, version }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(gap.after.rawValue, forKey: .after)
            try container.encode(gap.before.rawValue, forKey: .before)
            try container.encodeIfPresent(gap.missing, forKey: .missing)
            try container.encode("gap", forKey: .type)
            try container.encode(1, forKey: .version)
        }
    }
}
