import Foundation
import Glibc

/// What `PathCheck` sees on this host, one `stat` per path, each parent directory looked up once.
///
/// A list of a thousand jobs usually names files in a few directories, so the directories'
/// answers are remembered: a directory seen once is not looked up again, and below a directory
/// this host does not see (a volume it does not mount) nothing is looked up at all — a path
/// inside an invisible directory cannot be visible itself, so the answer is `unknown` without a
/// `stat`. The answers match `stat` per path: symbolic links are followed, as
/// `FileManager.fileExists` does.
///
/// Not `Sendable`: one looker serves one check, on one thread (`PathCheck` runs it on a
/// `BlockingWorkPool` thread, off the cooperative pool).
final class PathLooker {
    /// What is at an existing path.
    enum Entry: Equatable {
        case file
        case directory
    }

    private let entry: (String) -> Entry?
    /// Whether each parent directory looked up so far exists.
    private var directories: [String: Bool] = [:]

    /// A looker asking `stat` (nil: nothing there, or not visible) about each path; the default
    /// is the system's `stat(2)`, following symbolic links.
    init(stat: @escaping (String) -> Entry? = PathLooker.systemStat) {
        entry = stat
    }

    /// What this host sees at `path`: file, directory, missing (its directory exists) or
    /// unknown (its directory is not visible either).
    func look(_ path: String) -> PathCheck.LocalFile {
        let parent = Self.parent(of: path)
        if directories[parent] == false { return .unknown }
        switch entry(path) {
        case .file: return .file
        case .directory: return .directory
        case nil: break
        }
        let visible = directories[parent] ?? (entry(parent) != nil)
        directories[parent] = visible
        return visible ? .missing : .unknown
    }

    /// The directory `path` is in: everything before its last component, without trailing
    /// slashes ("/" for a path in the root, "" for a bare name). Done on bytes: Foundation's
    /// `deletingLastPathComponent` cost more than the rest of checking a job.
    static func parent(of path: String) -> String {
        var utf8 = Substring(path).utf8
        let slash = UInt8(ascii: "/")
        while utf8.count > 1, utf8.last == slash { utf8 = utf8.dropLast() }  // "dir/" names dir
        guard let last = utf8.lastIndex(of: slash) else { return "" }
        var parent = utf8[..<last]
        while parent.last == slash { parent = parent.dropLast() }  // "a//b" is in "a"
        return parent.isEmpty ? "/" : String(Substring(parent))
    }

    /// `stat(2)` on `path`: what is there, or nil when the call fails (nothing there, or a
    /// directory on the way this host may not search).
    static func systemStat(_ path: String) -> Entry? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR ? .directory : .file
    }
}
