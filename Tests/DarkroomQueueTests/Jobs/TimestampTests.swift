import DarkroomQueue
import Foundation
import Testing

@Suite("Timestamps are ISO-8601 UTC with milliseconds")
struct TimestampTests {
    @Test(
        "Known instants print as 24-character UTC text with milliseconds",
        arguments: [
            (Int64(0), "1970-01-01T00:00:00.000Z"),
            (1_750_000_000_123, "2025-06-15T15:06:40.123Z"),
            (1_709_251_199_999, "2024-02-29T23:59:59.999Z"),
            (-500, "1969-12-31T23:59:59.500Z"),
        ])
    func formats(milliseconds: Int64, text: String) {
        let timestamp = Timestamp(millisecondsSince1970: milliseconds)
        #expect(timestamp.iso8601 == text)
        #expect(Timestamp(iso8601: text) == timestamp)
    }

    @Test("Given other fractions and offsets, parsing converts to UTC milliseconds")
    func parsesVariants() {
        #expect(Timestamp(iso8601: "2025-06-15T15:06:40Z")?.millisecondsSince1970 == 1_750_000_000_000)
        #expect(Timestamp(iso8601: "2025-06-15T15:06:40.1Z")?.millisecondsSince1970 == 1_750_000_000_100)
        #expect(Timestamp(iso8601: "2025-06-15T15:06:40.123456789Z")?.millisecondsSince1970 == 1_750_000_000_123)
        #expect(Timestamp(iso8601: "2025-06-15T17:06:40.123+02:00")?.millisecondsSince1970 == 1_750_000_000_123)
        #expect(Timestamp(iso8601: "2025-06-15T14:36:40.123-00:30")?.millisecondsSince1970 == 1_750_000_000_123)
    }

    @Test(
        "Malformed or out-of-range text is refused",
        arguments: [
            "", "2025-06-15", "2025-13-01T00:00:00Z", "2025-02-29T00:00:00Z", "2025-06-15T24:00:00Z",
            "2025-06-15T15:06:40.Z", "2025-06-15T15:06:40", "2025-06-15T15:06:40+0200", "２０２５-06-15T15:06:40Z",
            "2025-06-15T15:06:40Zjunk",
        ])
    func refuses(text: String) {
        #expect(Timestamp(iso8601: text) == nil)
    }

    @Test("Adding a huge duration saturates at the last representable millisecond instead of overflowing")
    func saturates() {
        let now = Timestamp(millisecondsSince1970: 1_750_000_000_000)
        #expect(now.adding(.seconds(Int64.max)) == .latest)
        #expect(Timestamp.latest.iso8601 == "9999-12-31T23:59:59.999Z")
        #expect(now.adding(.seconds(-Int64.max)) == .earliest)
        #expect(now.adding(.milliseconds(1500)).millisecondsSince1970 == 1_750_000_001_500)
        #expect(now.adding(.milliseconds(1500)).duration(since: now) == .milliseconds(1500))
        #expect(Timestamp(Date(timeIntervalSince1970: .infinity)).millisecondsSince1970 == 0)
    }

    @Test("A timestamp encodes as a JSON string and decodes back")
    func codable() throws {
        let timestamp = Timestamp(millisecondsSince1970: 1_750_000_000_123)
        let data = try JSONEncoder().encode([timestamp])
        #expect(String(decoding: data, as: UTF8.self) == #"["2025-06-15T15:06:40.123Z"]"#)
        #expect(try JSONDecoder().decode([Timestamp].self, from: data) == [timestamp])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Timestamp].self, from: Data(#"["yesterday"]"#.utf8)) }
    }
}
