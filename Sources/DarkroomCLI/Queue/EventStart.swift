import DarkroomCache
import DarkroomEventStream
import DarkroomQueue
import Foundation

/// Where `darkroom events` starts reading, from `--since` and `--follow`.
enum EventStart: Equatable, Sendable {
    /// The oldest retained event (the default without `--follow`).
    case beginning
    /// Only events published from now on (`--follow` without `--since`).
    case latest
    /// Events after this stream position (`--since 1700000000000-0`).
    case cursor(EventCursor)
    /// Events published at or after this time (`--since 2025-03-01T12:00:00Z`, `--since 10m`).
    case time(Timestamp)

    /// Reads `--since`: an event id (`1700000000000-0`, or a bare number), an ISO-8601 time
    /// (`2025-03-01T12:00:00Z`, `…+02:00`; without an offset it is UTC; a bare date is its
    /// midnight UTC), or an age such as `90s`, `10m`, `2h`, `1d`, `1h30m`.
    static func parse(since: String?, follow: Bool, now: Timestamp = .now()) throws(UsageFailure) -> EventStart {
        guard let raw = since else { return follow ? .latest : .beginning }
        let text = raw.trimmingCharacters(in: .whitespaces)
        if isEventID(text) {
            // A bare millisecond id means its first entry, as Redis reads an incomplete stream id.
            return .cursor(EventCursor(rawValue: text.contains("-") ? text : text + "-0"))
        }
        if let time = timestamp(text) { return .time(time) }
        if let first = text.first, first.isNumber, let age = try? DurationText.parse(text) {
            return .time(now.adding(.zero - age))
        }
        throw UsageFailure(
            "--since '\(EventFormatting.sanitized(String(raw.prefix(40))))' is not an event id (1700000000000-0), an ISO-8601 time (2025-03-01T12:00:00Z) or an age (10m, 2h, 1d)"
        )
    }

    /// `digits-digits` (a Redis stream id) or plain digits.
    static func isEventID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0.count <= 20 && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    private static func timestamp(_ text: String) -> Timestamp? {
        if let exact = Timestamp(iso8601: text) { return exact }
        // A date alone, or a time without an offset, is read as UTC.
        if text.count == 10, let midnight = Timestamp(iso8601: text + "T00:00:00Z") { return midnight }
        if text.count >= 19, !text.hasSuffix("Z"), !text.hasSuffix("z"), let utc = Timestamp(iso8601: text + "Z") { return utc }
        return nil
    }

    /// Where an `EventSource` starts, and the cursor to offer for resuming when it reads nothing.
    /// `--follow` alone asks for the newest cursor now, so events published while the source
    /// connects are not missed; a time goes to the source as a time, so a stream that begins
    /// after it is not taken for a trimmed one.
    func source(on queue: any JobQueueDriver) async throws -> (start: EventSource.Start, cursor: EventCursor) {
        switch self {
        case .beginning: return (.beginning, .start)
        case .latest:
            let cursor = try await queue.latestEventCursor()
            return (.after(cursor), cursor)
        case .cursor(let cursor): return (.after(cursor), cursor)
        case .time(let time): return (.time(time), try await queue.eventCursor(at: time))
        }
    }
}
