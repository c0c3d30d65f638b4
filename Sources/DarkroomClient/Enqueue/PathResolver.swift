/// Makes paths absolute, because workers run elsewhere: a path only means something on the
/// shared volume, from its root.
public enum PathResolver {
    /// `source` unchanged when it is a URL (`scheme://…` or `data:`), else as an absolute path.
    public static func source(_ source: String, from directory: String) -> String {
        isURL(source) ? source : absolute(source, from: directory)
    }

    /// `output` unchanged when it is a URL (an object-storage destination, `s3://bucket/prefix/`),
    /// else as an absolute path.
    public static func output(_ output: String, from directory: String) -> String {
        isURL(output) ? output : absolute(output, from: directory)
    }

    /// Whether `text` starts with `scheme:` followed by `//`, or is a `data:` URI (any case).
    /// Read as UTF-8 bytes: a scheme is ASCII, and this runs once per enqueued job, where
    /// lower-casing and walking `Character`s cost more than the rest of planning the job.
    public static func isURL(_ text: String) -> Bool {
        if let answer = text.utf8.withContiguousStorageIfAvailable(isURL) { return answer }
        return Array(text.utf8).withUnsafeBufferPointer(isURL)  // a string not stored as UTF-8
    }

    private static func isURL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.count >= 5, bytes[0] | 0x20 == UInt8(ascii: "d"), bytes[1] | 0x20 == UInt8(ascii: "a"),
            bytes[2] | 0x20 == UInt8(ascii: "t"), bytes[3] | 0x20 == UInt8(ascii: "a"), bytes[4] == UInt8(ascii: ":")
        {
            return true
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, colon + 2 < bytes.count,
            bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/"), isLetter(bytes[0])
        else { return false }
        return bytes[..<colon].allSatisfy { byte in
            isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// `path` joined to `directory` when relative, with `.` and `..` segments and repeated
    /// slashes removed lexically (symbolic links are not resolved: the path must make sense on
    /// the workers, not here).
    public static func absolute(_ path: String, from directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : directory + "/" + path
        if isNormal(joined) { return joined }
        var segments: [Substring] = []
        for segment in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": if !segments.isEmpty { segments.removeLast() }
            default: segments.append(segment)
            }
        }
        return "/" + segments.joined(separator: "/")
    }

    /// Whether `path` (absolute) has no empty, `.` or `..` segment and no trailing slash: the
    /// common case, returned as is without splitting.
    static func isNormal(_ path: String) -> Bool {
        guard path.utf8.first == UInt8(ascii: "/") else { return false }
        var length = 0
        var onlyDots = true
        var first = true
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if !first && (length == 0 || (onlyDots && length <= 2)) { return false }
                first = false
                length = 0
                onlyDots = true
            } else {
                length += 1
                if byte != UInt8(ascii: ".") { onlyDots = false }
            }
        }
        return length > 0 ? !(onlyDots && length <= 2) : path == "/"
    }
}
