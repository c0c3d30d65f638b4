import DarkroomSystem

extension SourceURL {
    /// The path with escapes normalised and `.`/`..` segments removed (RFC 3986 §5.2.4), so
    /// `/images/%2e%2e/secret` and `/images/../secret` both become `/secret` before any prefix is
    /// compared with it.
    static func normalizePath(_ bytes: ArraySlice<UInt8>) throws(Problem) -> String {
        guard !bytes.isEmpty else { return "/" }
        let escaped = try normalizeEscapes(bytes, part: "path")
        var output: [Substring] = []
        let segments = escaped.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            if let semicolon = segment.firstIndex(of: ";") {
                let head = segment[..<semicolon]
                if head == "." || head == ".." {
                    throw .invalid("has a path segment '\(segment)', which some servers read as '\(head)'")
                }
            }
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/")
    }

    /// Percent-escapes checked and normalised: an escaped unreserved character (`%41`, `%2e`) is
    /// written plainly, other escapes in upper case (`%2f` → `%2F`); bytes a URL cannot carry
    /// plainly (space, `"`, `<`, `>`, `` ` ``, `{`, `}`, non-ASCII) are escaped.
    static func normalizeEscapes(_ bytes: ArraySlice<UInt8>, part: String) throws(Problem) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 3 <= bytes.endIndex,
                    let high = HexDigits.value(bytes[index + 1]), let low = HexDigits.value(bytes[index + 2])
                else {
                    throw .invalid("has a '%' not followed by two hex digits in its \(part); write a literal % as %25")
                }
                let value = high << 4 | low
                if isUnreserved(value) {
                    out.append(value)
                } else {
                    appendEscape(value, to: &out)
                }
                index += 3
                continue
            }
            if byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<")
                || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "{")
                || byte == UInt8(ascii: "}")
            {
                appendEscape(byte, to: &out)
            } else {
                out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// True when the path carries an escaped `/` or `\`, which a server may decode into a
    /// separator after the allow-list has compared segments.
    var pathHasEscapedSeparator: Bool {
        path.contains("%2F") || path.contains("%5C")
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~")
    }

    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x41 + nibble - 10 }
        out.append(UInt8(ascii: "%"))
        out.append(digit(byte >> 4))
        out.append(digit(byte & 0x0F))
    }
}
