import DarkroomSystem

extension S3XMLReader {
    /// `run` with `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#NN;` and `&#xNN;` decoded. Any other
    /// `&` is an error, as is a reference to a code point XML does not allow (NUL, surrogates).
    static func decodeEntities(_ run: ArraySlice<UInt8>, at offset: Int) throws(S3XMLError) -> [UInt8] {
        guard run.contains(UInt8(ascii: "&")) else { return Array(run) }
        var out: [UInt8] = []
        out.reserveCapacity(run.count)
        var index = run.startIndex
        while index < run.endIndex {
            let byte = run[index]
            guard byte == UInt8(ascii: "&") else {
                out.append(byte)
                index += 1
                continue
            }
            let limit = min(run.endIndex, index + 12)
            guard let semicolon = run[index..<limit].firstIndex(of: UInt8(ascii: ";")) else {
                throw S3XMLError("an unterminated entity at byte \(offset + index - run.startIndex)")
            }
            let name = String(decoding: run[(index + 1)..<semicolon], as: UTF8.self)
            guard let scalar = entity(name) else {
                throw S3XMLError("an unknown entity at byte \(offset + index - run.startIndex)")
            }
            out += Array(String(Character(scalar)).utf8)
            index = semicolon + 1
        }
        return out
    }

    private static func entity(_ name: String) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#"), name.utf8.count >= 2 else { return nil }
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.hasPrefix("x") || digits.hasPrefix("X") {
                value = digits.count > 1 ? UInt32(digits.dropFirst(), radix: 16) : nil
            } else {
                value = UInt32(digits, radix: 10)
            }
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
            return scalar
        }
    }

    /// Percent-decoding as S3's `encoding-type=url` writes keys: `%XX` is a byte and `+` a space
    /// (a `+` in a key comes as `%2B`). A `%` not followed by two hex digits stays as it is.
    static func urlDecode(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = HexDigits.value(bytes[index + 1]), let low = HexDigits.value(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
