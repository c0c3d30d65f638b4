import DarkroomQueue

/// The promises of `SourceRedaction` checked on any text: no user-info password and no value
/// (longer than 3 bytes) of a listed query parameter survives, and redacting twice changes
/// nothing. The secrets are found by an independent reading of the documented rules (user-info up
/// to the last `@` before the first `?`; the query from that `?` to the next `#`, unless a `#`
/// comes first; parameters split on `&` and `;`).
enum RedactionProperty {
    static func check(_ text: String) {
        let redacted = SourceRedaction.redact(text)
        let twice = SourceRedaction.redact(redacted)
        if twice != redacted {
            FuzzFailure.stop("text", "redaction is not idempotent: \(text.debugDescription) → \(redacted.debugDescription) → \(twice.debugDescription)")
        }
        let bytes = Array(text.utf8)
        guard let spans = secretSpans(bytes), !spans.isEmpty else { return }
        // The input with each secret replaced by `*`: a secret may still show where the input
        // has it in the open (a password that is also the host's name).
        var open: [UInt8] = []
        var copied = 0
        for span in spans {
            open += bytes[copied..<span.lowerBound] + [UInt8(ascii: "*")]
            copied = span.upperBound
        }
        open += bytes[copied...]
        let output = Array(redacted.utf8)
        for span in spans {
            let secret = bytes[span]
            guard span.count > 3, !secret.contains(UInt8(ascii: "*")), contains(output, secret), !contains(open, secret) else { continue }
            FuzzFailure.stop(
                "text",
                "\(text.debugDescription) redacts to \(redacted.debugDescription), which keeps \(String(decoding: secret, as: UTF8.self).debugDescription)")
        }
    }

    /// Byte for byte, not by `Character` (a combining mark must not hide a match).
    private static func contains(_ haystack: [UInt8], _ needle: ArraySlice<UInt8>) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// The byte ranges of the user-info's password and of listed parameters' values, in order;
    /// nil when `bytes` is not a `scheme://` URL.
    private static func secretSpans(_ bytes: [UInt8]) -> [Range<Int>]? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            bytes[..<colon].allSatisfy({
                $0 < 0x80 && (Character(Unicode.Scalar($0)).isLetter || Character(Unicode.Scalar($0)).isNumber || "+-.".utf8.contains($0))
            }),
            bytes[colon...].starts(with: "://".utf8)
        else { return nil }
        let rest = colon + 3
        let question = bytes[rest...].firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        var spans: [Range<Int>] = []
        var hostStart = rest
        if let at = bytes[rest..<question].lastIndex(of: UInt8(ascii: "@")) {
            if let passwordColon = bytes[rest..<at].firstIndex(of: UInt8(ascii: ":")) { spans.append((passwordColon + 1)..<at) }
            hostStart = at
        }
        let hash = bytes[hostStart...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        guard question < hash else { return spans }
        var start = question + 1
        for index in (question + 1)...hash where index == hash || bytes[index] == UInt8(ascii: "&") || bytes[index] == UInt8(ascii: ";") {
            let parameter = bytes[start..<index]
            if let equals = parameter.firstIndex(of: UInt8(ascii: "=")),
                SourceRedaction.secretParameters.contains(decodedLowercased(parameter[..<equals]))
            {
                spans.append((equals + 1)..<index)
            }
            start = index + 1
        }
        return spans
    }

    /// Percent-decoded (`+` as a space), ASCII-lowercased: the name as the rules compare it.
    private static func decodedLowercased(_ name: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var index = name.startIndex
        while index < name.endIndex {
            if name[index] == UInt8(ascii: "%"), index + 2 < name.endIndex, let high = hex(name[index + 1]), let low = hex(name[index + 2]) {
                out.append(high * 16 + low)
                index += 3
            } else {
                out.append(name[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : name[index])
                index += 1
            }
        }
        return String(decoding: out.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        let digits = Array("0123456789abcdef".utf8)
        return digits.firstIndex(of: byte >= 0x41 && byte <= 0x46 ? byte + 32 : byte).map(UInt8.init)
    }
}
