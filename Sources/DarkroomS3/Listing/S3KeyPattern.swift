/// The objects an `s3://` prefix or glob names, for `enqueue` and `run`
/// (docs/object-storage.md#sources):
///
/// - `s3://uploads/2026/11/` (a key ending in `/`, or none): every object under the prefix;
/// - `s3://uploads/2026/11/*.heic`: a glob, `*` and `?` within one `/`-separated segment, `**`
///   across segments. Only the literal part before the first wildcard is listed.
public struct S3KeyPattern: Sendable, Hashable, CustomStringConvertible {
    public var bucket: S3Bucket
    /// What is asked of `ListObjectsV2`: the key up to its first wildcard.
    public var listPrefix: String
    /// The glob's segments; nil for a plain prefix (every key listed matches).
    let segments: [[Character]]?
    /// The pattern as written.
    public let text: String

    public var description: String { text }

    /// Whether `text` is an `s3://` prefix or glob rather than one object: its key is empty, ends
    /// in `/`, or holds `*` or `?`.
    public static func isPattern(_ text: String) -> Bool {
        guard text.utf8.count >= 5, text.prefix(5).lowercased() == "s3://" else { return false }
        let rest = text.dropFirst(5)
        guard let slash = rest.firstIndex(of: "/") else { return true }
        let key = rest[rest.index(after: slash)...]
        return key.isEmpty || key.hasSuffix("/") || key.contains("*") || key.contains("?")
    }

    /// Parses a prefix or glob; refuses what `S3ObjectAddress` refuses (a `..` segment, …).
    public init(parsing text: String) throws(S3Error) {
        let address = try S3ObjectAddress.parse(text, allowEmptyKey: true)
        self.text = text
        bucket = address.bucket
        let key = address.key
        if let wildcard = key.firstIndex(where: { $0 == "*" || $0 == "?" }) {
            listPrefix = String(key[..<wildcard])
            // Consecutive `**` match what one does; collapsed, matching stays polynomial.
            var parts: [[Character]] = []
            for part in key.split(separator: "/", omittingEmptySubsequences: false).map({ Array($0) }) {
                if part == ["*", "*"], parts.last == ["*", "*"] { continue }
                parts.append(part)
            }
            segments = parts
        } else {
            listPrefix = key
            segments = nil
        }
    }

    /// Whether a listed `key` is one of the pattern's objects. Keys ending in `/` (folder markers
    /// some consoles make) never are.
    public func matches(_ key: String) -> Bool {
        if key.hasSuffix("/") { return false }
        guard let segments else { return key.hasPrefix(listPrefix) }
        let parts = key.split(separator: "/", omittingEmptySubsequences: false).map { Array($0) }
        return Self.match(segments[...], parts[...])
    }

    private static func match(_ pattern: ArraySlice<[Character]>, _ parts: ArraySlice<[Character]>) -> Bool {
        guard let first = pattern.first else { return parts.isEmpty }
        if first == ["*", "*"] {
            return (parts.startIndex...parts.endIndex).contains { match(pattern.dropFirst(), parts[$0...]) }
        }
        guard let part = parts.first, matchSegment(first, part) else { return false }
        return match(pattern.dropFirst(), parts.dropFirst())
    }

    /// `*` and `?` within one segment, with the usual single backtracking point (linear enough).
    static func matchSegment(_ pattern: [Character], _ text: [Character]) -> Bool {
        var p = 0
        var t = 0
        var star = -1
        var starText = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                starText = t
                p += 1
            } else if star >= 0 {
                p = star + 1
                starText += 1
                t = starText
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
