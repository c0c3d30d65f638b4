import DarkroomSystem
import Foundation

/// A UTC instant with millisecond precision, written in JSON as ISO-8601 with exactly three
/// fractional digits and a `Z`: `2025-03-01T12:34:56.789Z`.
///
/// Job and event records cross processes and hosts, so they carry wall-clock time. Milliseconds are
/// what Redis uses for stream ids, sorted-set scores of delayed jobs and idle times, so nothing finer
/// is stored. Formatting and parsing are hand-written (no `DateFormatter`): they run once or twice
/// per job on the enqueue path, which aims at 100,000 jobs/s.
///
/// The range is 0001-01-01T00:00:00.000Z … 9999-12-31T23:59:59.999Z; values outside are clamped,
/// so arithmetic on hostile durations (`--delay 1e18`) cannot overflow or print a 5-digit year.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z (negative before it).
    public let millisecondsSince1970: Int64

    /// 0001-01-01T00:00:00.000Z.
    public static let earliest = Timestamp(clamping: -62_135_596_800_000)
    /// 9999-12-31T23:59:59.999Z.
    public static let latest = Timestamp(clamping: 253_402_300_799_999)

    private init(clamping value: Int64) { millisecondsSince1970 = value }

    /// The instant `milliseconds` after the Unix epoch, clamped to years 1…9999.
    public init(millisecondsSince1970 milliseconds: Int64) {
        millisecondsSince1970 = min(
            max(milliseconds, Timestamp.earliest.millisecondsSince1970),
            Timestamp.latest.millisecondsSince1970)
    }

    /// The instant of `date`, rounded down to the millisecond.
    public init(_ date: Date) {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        // Non-finite or huge dates clamp instead of trapping in the Int64 conversion.
        let bounded =
            milliseconds.isFinite
            ? min(
                max(milliseconds, Double(Timestamp.earliest.millisecondsSince1970)),
                Double(Timestamp.latest.millisecondsSince1970))
            : 0
        self.init(millisecondsSince1970: Int64(bounded))
    }

    /// The current wall-clock time.
    public static func now() -> Timestamp { Timestamp(Date()) }

    /// The same instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000) }

    /// This instant moved by `duration` (whole milliseconds, rounded toward zero), saturating at the range ends.
    public func adding(_ duration: Duration) -> Timestamp {
        let (sum, overflow) = millisecondsSince1970.addingReportingOverflow(duration.wholeMilliseconds)
        if overflow { return duration > .zero ? .latest : .earliest }
        return Timestamp(millisecondsSince1970: sum)
    }

    /// How long after `earlier` this instant is (negative when it is before).
    public func duration(since earlier: Timestamp) -> Duration {
        // Both values lie in the clamped range, so the difference fits easily in Int64.
        .milliseconds(millisecondsSince1970 - earlier.millisecondsSince1970)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    public var description: String { iso8601 }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Timestamp(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not an ISO-8601 UTC time like 2025-03-01T12:34:56.789Z: '\(text.prefix(40))'")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
