extension SourceRedaction {
    /// `text` (an error message, say) with every URL in it redacted by `redact(_:)`: each run of
    /// non-whitespace holding `scheme://`, from the scheme's first byte, less a `:` or `,` that ends
    /// it before a space (the message's punctuation). Text without `://` is returned as it is.
    public static func redactURLs(in text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var copied = 0
        var index = 0
        while index + 2 < bytes.count {
            guard bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == slash, bytes[index + 2] == slash else {
                index += 1
                continue
            }
            var start = index
            while start > copied, isSchemeByte(bytes[start - 1]) { start -= 1 }
            var end = bytes[index...].firstIndex(where: isWhitespace) ?? bytes.count
            // `SOURCE: message` and `URL, which …`: the punctuation is the message's, not the URL's.
            if end < bytes.count, bytes[end - 1] == UInt8(ascii: ":") || bytes[end - 1] == UInt8(ascii: ",") { end -= 1 }
            guard start < index else {
                index = end
                continue
            }
            out += bytes[copied..<start]
            out += redact(String(decoding: bytes[start..<end], as: UTF8.self)).utf8
            copied = end
            index = end
        }
        guard copied > 0 else { return text }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }
}
