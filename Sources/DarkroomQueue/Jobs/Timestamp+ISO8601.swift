/// ISO-8601 text for `Timestamp`, by hand: the civil-date arithmetic is Howard Hinnant's
/// days-from-civil / civil-from-days, valid for the proleptic Gregorian calendar.
extension Timestamp {
    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, always 24 ASCII characters.
    public var iso8601: String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        appendISO8601(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `iso8601`'s 24 bytes to `out` without making a `String` (the record writers call
    /// this for every event and job they write).
    package func appendISO8601(to out: inout [UInt8]) {
        let millisecondsPerDay: Int64 = 86_400_000
        var days = millisecondsSince1970 / millisecondsPerDay
        var rest = millisecondsSince1970 % millisecondsPerDay
        if rest < 0 {
            rest += millisecondsPerDay
            days -= 1
        }
        let (year, month, day) = Timestamp.civil(fromDays: days)
        let secondsOfDay = rest / 1000
        Self.append(year, width: 4, then: "-", to: &out)
        Self.append(month, width: 2, then: "-", to: &out)
        Self.append(day, width: 2, then: "T", to: &out)
        Self.append(secondsOfDay / 3600, width: 2, then: ":", to: &out)
        Self.append(secondsOfDay / 60 % 60, width: 2, then: ":", to: &out)
        Self.append(secondsOfDay % 60, width: 2, then: ".", to: &out)
        Self.append(rest % 1000, width: 3, then: "Z", to: &out)
    }

    /// `value`'s last `width` decimal digits, zero-padded, then `separator`.
    @inline(__always)
    private static func append(_ value: Int64, width: Int, then separator: Unicode.Scalar, to out: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / divisor % 10))
            divisor /= 10
        }
        out.append(UInt8(ascii: separator))
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`. Fractions beyond milliseconds are
    /// truncated; offsets are converted to UTC. Returns nil for anything else (including
    /// out-of-range fields such as month 13 or February 30).
    public init?(iso8601 text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Timestamp(iso8601Bytes: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = parsed
    }

    /// `init(iso8601:)` over the text's UTF-8 bytes (the event reader parses records in place).
    package init?(iso8601Bytes bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 20, bytes.count <= 64 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for index in start..<(start + count) {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func expect(_ index: Int, _ characters: String) -> Bool {
            index < bytes.count && characters.utf8.contains(bytes[index])
        }
        guard let year = number(0, 4), expect(4, "-"), let month = number(5, 2), expect(7, "-"),
            let day = number(8, 2), expect(10, "Tt "), let hour = number(11, 2), expect(13, ":"),
            let minute = number(14, 2), expect(16, ":"), let second = number(17, 2)
        else { return nil }
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Timestamp.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        var index = 19
        var milliseconds: Int64 = 0
        if expect(index, ".") {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                if digits < 3 { milliseconds = milliseconds * 10 + Int64(bytes[index] - UInt8(ascii: "0")) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { milliseconds *= 10 }
        }
        var offsetMinutes: Int64 = 0
        if expect(index, "Zz"), index + 1 == bytes.count {
            offsetMinutes = 0
        } else if expect(index, "+-"), index + 6 == bytes.count, let offsetHours = number(index + 1, 2),
            expect(index + 3, ":"), let offsetMinutesPart = number(index + 4, 2),
            offsetHours < 24, offsetMinutesPart < 60
        {
            offsetMinutes = (offsetHours * 60 + offsetMinutesPart) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        let days = Timestamp.days(fromCivil: year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60
        self.init(millisecondsSince1970: seconds * 1000 + milliseconds)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays value: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = value + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPrime + 2) / 5 + 1
        let month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
