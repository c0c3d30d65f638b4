#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The directories a worker may write job outputs under (`--allow-output-root`), and the checks
/// that keep a job's `output` inside them.
///
/// - Before a job runs (`prepare`): the output directory, with `.`/`..` resolved lexically (and
///   relative paths taken from the worker's working directory), must be a root or below one; it
///   is created if missing. Directories that passed are remembered, so repeated jobs into one
///   directory cost no file-system calls here.
/// - When the result is written (`OutputWriter`): the directory is opened, and the real path of
///   what was opened (symlinks resolved, read back from `/proc/self/fd`) must be inside a root's
///   real path; the file is then created relative to that open directory. A symlink planted
///   under a root, or swapped in after the first check, cannot lead a write outside.
final class OutputRoots: Sendable {
    /// The roots, absolute and lexically normalised.
    let roots: [String]
    private let realRoots = Mutex<[String: String]>([:])
    private let prepared = Mutex<Set<String>>([])

    init(_ roots: [String]) {
        self.roots = roots.map(Self.absolute)
    }

    /// The directory for `output` when an earlier job already prepared it (no I/O), else nil.
    func preparedDirectory(for output: String) -> String? {
        let directory = Self.absolute(output)
        return prepared.withLock { $0.contains(directory) } ? directory : nil
    }

    /// The directory to write `output` into, created if missing (blocking file-system calls).
    /// - Throws: `WorkerError` `output.not-allowed`, or `output.*` when it cannot be created.
    func prepare(_ output: String) throws(WorkerError) -> String {
        let directory = Self.absolute(output)
        if prepared.withLock({ $0.contains(directory) }) { return directory }
        guard roots.contains(where: { Self.contains($0, directory) }) else { throw .outputNotAllowed(output, roots: roots) }
        try Self.createDirectories(directory)
        guard let real = Self.realPath(directory), isInsideRealRoot(real) else { throw .outputNotAllowed(output, roots: roots) }
        _ = prepared.withLock { $0.insert(directory) }
        return directory
    }

    /// Whether `realPath` (symlinks resolved) is inside the real path of a root.
    func isInsideRealRoot(_ realPath: String) -> Bool {
        roots.contains { root in
            guard let realRoot = self.realRoot(root) else { return false }
            return Self.contains(realRoot, realPath)
        }
    }

    /// A root's real path, resolved once (roots are the operator's, not the jobs').
    private func realRoot(_ root: String) -> String? {
        if let known = realRoots.withLock({ $0[root] }) { return known }
        guard let real = Self.realPath(root) else { return nil }
        realRoots.withLock { $0[root] = real }
        return real
    }

    /// Whether `path` is `root` or below it (both absolute and normalised).
    static func contains(_ root: String, _ path: String) -> Bool {
        root == "/" || path == root || path.hasPrefix(root + "/")
    }

    /// `path` made absolute (against the working directory) with `.`, `..` and `//` resolved.
    static func absolute(_ path: String) -> String {
        var full = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let cwd = getcwd(&buffer, buffer.count) != nil
                ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "/"
            full = cwd + "/" + path
        }
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `mkdir -p`, mode 0755; a directory that exists costs one `stat`.
    static func createDirectories(_ path: String) throws(WorkerError) {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw OutputWriter.failure(errno, path: path, doing: "create the directory")
            }
        }
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw WorkerError(code: "output.cannot-write", message: "\(path): exists and is not a directory", isTransient: false)
        }
    }
}
