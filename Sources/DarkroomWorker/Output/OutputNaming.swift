import DarkroomQueue
import DarkroomSources

/// The file name a job's result gets under its `output` directory: the source's base name with
/// the output format's extension (`photos/cat.jpg` → `cat.webp`), or the job id when the source
/// has no usable name (a `data:` URI, a URL ending in `/`) or when another job's different
/// file already has that name.
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
        var name = String(id.rawValue.map { $0 == "/" ? "_" : $0 })
        if name.hasPrefix(".") { name = "_" + name.dropFirst() }
        // 200 bytes at most (JobID's rule) plus an extension stays under NAME_MAX (255).
        return name
    }

    /// `base.ext`, or nil when the base is not usable.
    static func sanitized(_ base: String) -> String? {
        guard !base.isEmpty, !base.hasPrefix("."), !base.contains("/"), base.utf8.count <= 200,
            !base.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        return base
    }
}
