import DarkroomSystem

/// The values an output-name template's fields take (`OutputNameTemplate`): the source's base
/// name (`{stem}`), the job id and batch as file names (`{id}`, `{batch}`) and the chain's digest
/// (`{chain}`, `ChainDigest`). The same rules at enqueue (to find two jobs that would write one
/// path) and in the worker (to name the file), so both agree on every name.
public enum OutputNaming {
    /// The base name of `source`: the last path component without its extension, for paths, `file:`
    /// and `http(s):` URLs (query and fragment ignored, percent-escapes decoded:
    /// `https://x/a/my%20cat.jpg?w=1` → `my cat`). Nil for `data:` URIs and sources without a file
    /// name, and for names that are not safe as a file name on their own (`..`, hidden files).
    public static func baseName(ofSource source: String) -> String? {
        let lower = source.lowercased()
        if lower.hasPrefix("data:") { return nil }
        var path = Substring(source)
        for scheme in ["http://", "https://", "file://"] where lower.hasPrefix(scheme) {
            let afterScheme = source.dropFirst(scheme.count)
            path = afterScheme.drop(while: { $0 != "/" }).prefix(while: { $0 != "?" && $0 != "#" })
            break
        }
        let text = lower.hasPrefix("http") || lower.hasPrefix("file:") ? (percentDecoded(String(path)) ?? String(path)) : String(path)
        guard let last = text.split(separator: "/", omittingEmptySubsequences: true).last else { return nil }
        var name = Substring(last)
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        return sanitized(String(name))
    }

    /// A job id as a file name: `/` (ids may be paths used as idempotency keys) becomes `_`, and
    /// a leading `.` becomes `_` so the file is neither hidden nor `..`.
    public static func fileName(forJobID id: JobID) -> String {
        fileName(forKey: id.rawValue)
    }

    /// A batch name as a file name, by the job id's rule (batch names follow the id's rules).
    public static func fileName(forBatch batch: String) -> String {
        fileName(forKey: batch)
    }

    private static func fileName(forKey key: String) -> String {
        var name = String(key.map { $0 == "/" ? "_" : $0 })
        if name.hasPrefix(".") { name = "_" + name.dropFirst() }
        // 200 bytes at most (JobID's rule) plus an extension stays under NAME_MAX (255).
        return name
    }

    /// `base`, or nil when it is not usable as a file name's base.
    static func sanitized(_ base: String) -> String? {
        guard !base.isEmpty, !base.hasPrefix("."), !base.contains("/"), base.utf8.count <= 200,
            !base.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        return base
    }

    /// `text` with its percent-escapes decoded, strictly (a `%` must be followed by two
    /// hexadecimal digits, as the source providers require); nil when one is malformed or the
    /// result is not UTF-8. Here rather than borrowed from the providers, which link libcurl.
    static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(HexDigits.value), let low = iterator.next().flatMap(HexDigits.value) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
