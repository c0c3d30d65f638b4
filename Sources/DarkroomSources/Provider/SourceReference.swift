/// Where an image comes from, as a person or a job wrote it: a path, an `http(s)://` URL, a
/// `file://` URL or a `data:` URI.
public struct SourceReference: Hashable, Sendable, CustomStringConvertible {
    /// The text as given.
    public let raw: String
    /// The lower-cased scheme: `http`, `https`, `file` or `data` (a bare path is `file`).
    public let scheme: String

    /// Parses `raw`. A string without `scheme:` (or a Windows-like drive letter) is a file path.
    public init(_ raw: String) {
        self.raw = raw
        if let colon = raw.firstIndex(of: ":"), colon != raw.startIndex,
            raw[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }),
            raw[..<colon].first?.isLetter == true, raw[..<colon].count > 1
        {
            scheme = raw[..<colon].lowercased()
        } else {
            scheme = "file"
        }
    }

    /// True for a bare path (not a `file://` URL).
    public var isBarePath: Bool { scheme == "file" && !raw.lowercased().hasPrefix("file:") }

    /// A short form for messages: `data:` URIs are cut after their media type.
    public var description: String {
        guard scheme == "data" else { return raw }
        // Counted in UTF-8 bytes: counting Characters of a 50 MB URI would take tens of ms.
        let head = raw.utf8.prefix(while: { $0 != UInt8(ascii: ",") })
        return head.count < raw.utf8.count
            ? "\(String(decoding: head, as: UTF8.self)),…(\(raw.utf8.count) bytes)" : raw
    }
}
