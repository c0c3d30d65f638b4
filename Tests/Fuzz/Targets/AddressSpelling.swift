/// Generates the addresses and host spellings the `address` target feeds: addresses near the
/// ranges the guard cares about, and every way a URL may write them (WHATWG's IPv4 forms with
/// one to four parts in decimal, octal or hex; IPv6 in full, compressed, upper case, or with a
/// dotted IPv4 tail; IPv6 forms that embed an IPv4 address).
enum AddressSpelling {
    /// Leading bytes of IPv4 addresses on or next to the documented ranges' edges.
    private static let ipv4Starts: [[UInt8]] = [
        [0], [1], [8, 8, 8, 8], [9, 255, 255, 255], [10], [11], [100, 63], [100, 64], [100, 127], [100, 128], [126], [127],
        [128], [169, 253], [169, 254], [169, 255], [172, 15], [172, 16], [172, 31], [172, 32], [192, 0, 0], [192, 0, 1],
        [192, 0, 2], [192, 0, 3], [192, 88, 98], [192, 88, 99], [192, 167], [192, 168], [192, 169], [198, 17], [198, 18],
        [198, 19], [198, 20], [198, 51, 100], [198, 51, 101], [203, 0, 113], [203, 0, 112], [223, 255, 255, 255], [224],
        [239], [240], [254, 255, 255, 255], [255, 255, 255, 254], [255, 255, 255, 255],
    ]

    /// Leading bytes of IPv6 addresses on or next to the documented ranges' edges.
    private static let ipv6Starts: [[UInt8]] = [
        [], [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x01], [0x00, 0x64, 0xFF, 0x9B, 0x00, 0x02], [0x01, 0x00, 0, 0, 0, 0, 0, 0],
        [0x01, 0x00, 0, 0, 0, 0, 0, 1], [0x1F, 0xFF], [0x20, 0x00], [0x20, 0x01, 0x0D, 0xB8], [0x20, 0x01, 0x0D, 0xB9],
        [0x3F, 0xFF], [0x40, 0x00], [0xFB, 0xFF], [0xFC, 0x00], [0xFD, 0xFF], [0xFE, 0x7F], [0xFE, 0x80], [0xFE, 0xBF],
        [0xFE, 0xC0], [0xFE, 0xFF], [0xFF, 0x00], [0xFF, 0x02],
    ]

    /// 4 or 16 bytes, network order.
    static func pickAddress(_ input: inout FuzzInput) -> [UInt8] {
        switch input.choice(5) {
        case 0:
            return fill(start: ipv4Starts[input.choice(ipv4Starts.count)], count: 4, &input)
        case 1:
            return input.bytes(4)
        case 2:
            return fill(start: ipv6Starts[input.choice(ipv6Starts.count)], count: 16, &input)
        case 3:
            return input.bytes(16)
        default:
            let v4 = input.choice(2) == 0 ? fill(start: ipv4Starts[input.choice(ipv4Starts.count)], count: 4, &input) : input.bytes(4)
            return embed(v4, &input)
        }
    }

    /// `start`, then bytes chosen by the input: random, all zero, or zero ending in a one (so `::`,
    /// `::1`, `0.0.0.0` and their neighbours come up).
    private static func fill(start: [UInt8], count: Int, _ input: inout FuzzInput) -> [UInt8] {
        let rest = count - start.count
        switch input.choice(3) {
        case 0: return start + input.bytes(rest)
        case 1: return start + [UInt8](repeating: 0, count: rest)
        default: return start + [UInt8](repeating: 0, count: max(rest - 1, 0)) + (rest > 0 ? [1] : [])
        }
    }

    /// An IPv6 address that carries `v4`: mapped, compatible, translated, NAT64, 6to4 or Teredo.
    private static func embed(_ v4: [UInt8], _ input: inout FuzzInput) -> [UInt8] {
        let zero8 = [UInt8](repeating: 0, count: 8)
        switch input.choice(6) {
        case 0: return zero8 + [0, 0, 0xFF, 0xFF] + v4
        case 1: return zero8 + [0, 0, 0, 0] + v4
        case 2: return zero8 + [0xFF, 0xFF, 0, 0] + v4
        case 3: return [0x00, 0x64, 0xFF, 0x9B] + zero8 + v4
        case 4: return [0x20, 0x02] + v4 + input.bytes(10)
        default: return [0x20, 0x01, 0x00, 0x00] + input.bytes(8) + v4.map { ~$0 }
        }
    }

    /// An allowed range: around the address (or the IPv4 address it ends with), or anywhere.
    static func pickRange(_ input: inout FuzzInput, near address: [UInt8]) -> ([UInt8], Int) {
        switch input.choice(3) {
        case 0: return (address, input.choice(address.count * 8 + 1))
        case 1 where address.count == 16: return (Array(address.suffix(4)), input.choice(33))
        default:
            let base = input.choice(2) == 0 ? input.bytes(4) : input.bytes(16)
            return (base, input.choice(base.count * 8 + 1))
        }
    }

    /// A URL host that names `address`.
    static func spell(_ address: [UInt8], _ input: inout FuzzInput) -> String {
        address.count == 4 ? spellIPv4(address, &input) : "[" + spellIPv6(address, &input) + "]"
    }

    // MARK: IPv4

    private static func spellIPv4(_ bytes: [UInt8], _ input: inout FuzzInput) -> String {
        let value = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        // One to four parts: the leading parts are single bytes, the last fills what is left.
        let partCount = 1 + input.choice(4)
        var parts: [UInt64] = bytes.prefix(partCount - 1).map(UInt64.init)
        let lastBytes = 4 - (partCount - 1)
        parts.append(value & (UInt64(1) << UInt64(8 * lastBytes) - 1))
        var text = parts.map { number(for: $0, &input) }.joined(separator: ".")
        if input.choice(4) == 0 { text += "." }
        return text
    }

    /// A number in decimal, octal (leading zero) or hex (0x or 0X), with optional extra zeros.
    private static func number(for value: UInt64, _ input: inout FuzzInput) -> String {
        let padding = String(repeating: "0", count: input.choice(3))
        switch input.choice(4) {
        case 0, 1:
            return String(value)
        case 2:
            // Octal: a leading zero, then the digits (zero itself is "0" or "00").
            return "0" + padding + String(value, radix: 8)
        default:
            let prefix = input.choice(2) == 0 ? "0x" : "0X"
            let digits = String(value, radix: 16, uppercase: input.choice(2) == 0)
            // WHATWG reads a bare "0x" as zero.
            if value == 0 && input.choice(4) == 0 { return prefix }
            return prefix + padding + digits
        }
    }

    // MARK: IPv6

    private static func spellIPv6(_ bytes: [UInt8], _ input: inout FuzzInput) -> String {
        let groups = (0..<8).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
        let uppercase = input.choice(2) == 0
        let padded = input.choice(3) == 0
        let dottedTail = input.choice(3) == 0
        let groupCount = dottedTail ? 6 : 8
        var texts = groups.prefix(groupCount).map { group -> String in
            let digits = String(group, radix: 16, uppercase: uppercase)
            return padded ? String(repeating: "0", count: 4 - digits.count) + digits : digits
        }
        let tail = dottedTail ? bytes.suffix(4).map { String($0) }.joined(separator: ".") : nil
        // Compress one run of zero groups (any run, not only the longest: all are valid).
        let runs = zeroRuns(groups.prefix(groupCount))
        if !runs.isEmpty, input.choice(3) != 0 {
            let run = runs[input.choice(runs.count)]
            let before = texts[..<run.lowerBound].joined(separator: ":")
            let after = (Array(texts[run.upperBound...]) + (tail.map { [$0] } ?? [])).joined(separator: ":")
            return before + "::" + after
        }
        if let tail { texts.append(tail) }
        return texts.joined(separator: ":")
    }

    /// Ranges of consecutive zero groups.
    private static func zeroRuns(_ groups: ArraySlice<UInt16>) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start: Int?
        for index in groups.indices {
            if groups[index] == 0 {
                if start == nil { start = index }
            } else if let begin = start {
                runs.append(begin..<index)
                start = nil
            }
        }
        if let begin = start { runs.append(begin..<groups.endIndex) }
        return runs
    }
}
