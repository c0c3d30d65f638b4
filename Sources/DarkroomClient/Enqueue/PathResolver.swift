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

    /// Whether `text` starts with `scheme:` followed by `//`, or is a `data:` URI.
    public static func isURL(_ text: String) -> Bool {
        if text.lowercased().hasPrefix("data:") { return true }
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
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
