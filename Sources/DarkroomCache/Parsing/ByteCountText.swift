/// Sizes written by people: `500MB`, `2GiB`, `1.5G`, `750k`, `1048576`.
///
/// `KB`, `MB`, `GB`, `TB` are powers of 1000; `KiB`, `MiB`, `GiB`, `TiB` and the bare letters
/// `K`, `M`, `G`, `T` are powers of 1024 (as `du -h` prints them). A plain number is bytes.
/// Letters are case-insensitive; spaces between number and unit are allowed.
public enum ByteCountText {
    /// Why a size could not be read.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let text: String
        public let reason: String
        public var description: String { "'\(text)' is not a size: \(reason) (examples: 500MB, 2GiB, 750k, 1048576)" }
    }

    private static let units: [String: Double] = [
        "": 1, "b": 1,
        "k": 1024, "kib": 1024, "kb": 1000,
        "m": 1_048_576, "mib": 1_048_576, "mb": 1_000_000,
        "g": 1_073_741_824, "gib": 1_073_741_824, "gb": 1_000_000_000,
        "t": 1_099_511_627_776, "tib": 1_099_511_627_776, "tb": 1_000_000_000_000,
    ]

    /// Parses `text` into a byte count (rounded down to whole bytes).
    public static func parse(_ text: String) throws(ParseError) -> Int {
        let trimmed = text.trimmingSpaces
        let numberEnd = trimmed.firstIndex { !($0.isASCII && ($0.isNumber || $0 == ".")) } ?? trimmed.endIndex
        let numberText = trimmed[..<numberEnd]
        let unitText = trimmed[numberEnd...].trimmingSpaces.lowercased()
        guard !numberText.isEmpty, let number = Double(numberText), number.isFinite, number >= 0 else {
            throw ParseError(text: text, reason: "it must start with a number")
        }
        guard let multiplier = units[unitText] else {
            throw ParseError(text: text, reason: "unknown unit '\(unitText)'")
        }
        let bytes = number * multiplier
        guard bytes < 9.0e18 else { throw ParseError(text: text, reason: "too large") }
        return Int(bytes)
    }

    /// `1536` → `1.5 KiB`: for reports.
    public static func format(_ bytes: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while abs(value) >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(bytes) B" }
        let rounded = (value * 10).rounded() / 10
        return "\(rounded) \(units[unit])"
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
