/// Durations written by people: `7d`, `12h`, `30m`, `45s`, `2w`, and sums such as `1h30m`.
///
/// Units: `ms` milliseconds, `s` seconds, `m` minutes, `h` hours, `d` days, `w` weeks. A unit is required (a bare
/// `7` could mean anything). Numbers may have a fraction: `1.5h`.
public enum DurationText {
    /// Why a duration could not be read.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let text: String
        public let reason: String
        public var description: String { "'\(text)' is not a duration: \(reason) (examples: 7d, 12h, 30m, 1h30m)" }
    }

    private static let seconds: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]

    /// Parses `text` into a duration.
    public static func parse(_ text: String) throws(ParseError) -> Duration {
        let characters = Array(text.trimmingSpaces.lowercased())
        guard !characters.isEmpty else { throw ParseError(text: text, reason: "it is empty") }
        var total = 0.0
        var index = 0
        while index < characters.count {
            let start = index
            while index < characters.count, characters[index].isASCII, characters[index].isNumber || characters[index] == "." {
                index += 1
            }
            guard index > start, let number = Double(String(characters[start..<index])) else {
                throw ParseError(text: text, reason: "expected a number at '\(String(characters[start...]))'")
            }
            if index + 1 < characters.count, characters[index] == "m", characters[index + 1] == "s" {
                index += 2
                total += number / 1000
                continue
            }
            guard index < characters.count, let unit = seconds[characters[index]] else {
                throw ParseError(
                    text: text,
                    reason: index < characters.count ? "unknown unit '\(characters[index])'" : "a unit is missing after \(String(characters[start..<index]))")
            }
            index += 1
            total += number * unit
        }
        guard total.isFinite, total < 9.0e9 else { throw ParseError(text: text, reason: "too long") }
        return .nanoseconds(Int64((total * 1_000_000_000).rounded()))
    }

    /// `93784 s` → `1d2h3m4s`: for reports.
    public static func format(_ duration: Duration) -> String {
        var remaining = Int64(duration.components.seconds)
        guard remaining > 0 else { return "0s" }
        var text = ""
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60), ("s", 1)] where remaining >= size {
            text += "\(remaining / size)\(unit)"
            remaining %= size
        }
        return text
    }
}
