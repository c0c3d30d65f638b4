import DarkroomSystem
import Glibc

/// The directories a worker may write job outputs under (`--allow-output-root`), and the checks
/// that keep a job's `output` inside them.
///
/// - Before a job runs (`prepare`): the output directory, with `.`/`..` resolved lexically (and
///   relative paths taken from the worker's working directory), must be a root or below one; it
///   is created if missing. Directories that passed are remembered, so repeated jobs into one
///   directory cost no file-system calls here.
/// - When an output is written (`VolumeWriter`): the directory is opened, and the real path of
///   what was opened (symlinks resolved, read back from `/proc/self/fd`) must be inside a root's
///   real path; the file is then created relative to that open directory. A symlink planted
///   under a root, or swapped in after the first check, cannot lead a write outside.
final class VolumeRoots: Sendable {
    /// The roots, absolute and lexically normalised.
    let roots: [String]
    private let realRoots = Locked<[String: String]>([:])
    private let prepared = Locked<Set<String>>([])

    init(_ roots: [String]) {
        self.roots = roots.map(Self.absolute)
    }

    /// The directory for `output` when an earlier job already prepared it (no I/O), else nil.
    func preparedDirectory(for output: String) -> String? {
        let directory = Self.absolute(output)
        return prepared.withLock { $0.contains(directory) } ? directory : nil
    }

    /// The directory to write `output` into, created if missing (blocking file-system calls).
    /// - Throws: `output.not-allowed`, or `output.*` when it cannot be created.
    func prepare(_ output: String) throws(OutputError) -> String {
        let directory = Self.absolute(output)
        if prepared.withLock({ $0.contains(directory) }) { return directory }
        guard let root = roots.first(where: { Self.contains($0, directory) }) else { throw .notAllowed(output, roots: roots) }
        try createDirectories(directory, under: root, output: output)
        guard let real = Self.realPath(directory), isInsideRealRoot(real) else { throw .notAllowed(output, roots: roots) }
        _ = prepared.withLock { $0.insert(directory) }
        return directory
    }

    /// Forgets that `output` was prepared (its directory vanished): the next `prepare` checks and
    /// creates it again.
    func forget(_ output: String) {
        let directory = Self.absolute(output)
        _ = prepared.withLock { $0.remove(directory) }
    }

    /// `mkdir -p directory` below `root`, one directory at a time through opened descriptors, each
    /// checked to lie inside a real root before anything is created in it: a symlink under the
    /// root that points elsewhere cannot make the worker create directories outside the roots.
    private func createDirectories(_ directory: String, under root: String, output: String) throws(OutputError) {
        var info = stat()
        if stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0, errno == ENOENT {
            // The root itself is the operator's: create it as asked.
            try Self.createDirectories(root)
            fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard fd >= 0 else { throw OutputError.failure(errno, path: root, doing: "open the directory") }
        defer { close(fd) }
        let rest = root == "/" ? directory.dropFirst() : directory.dropFirst(root.count)
        for part in rest.split(separator: "/") {
            let name = String(part)
            if mkdirat(fd, name, 0o755) != 0 && errno != EEXIST {
                throw OutputError.failure(errno, path: directory, doing: "create the directory")
            }
            let next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard next >= 0 else {
                let code = errno
                if code == ENOTDIR {
                    throw OutputError(.cannotWrite, "\(directory): a part of it exists and is not a directory")
                }
                throw OutputError.failure(code, path: directory, doing: "create the directory")
            }
            close(fd)
            fd = next
            guard let real = VolumeWriter.realPath(of: fd, fallback: nil), isInsideRealRoot(real) else {
                throw .notAllowed(output, roots: roots)
            }
        }
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
            let cwd =
                getcwd(&buffer, buffer.count) != nil
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
    static func createDirectories(_ path: String) throws(OutputError) {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
        var current = ""
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw OutputError.failure(errno, path: path, doing: "create the directory")
            }
        }
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw OutputError(.cannotWrite, "\(path): exists and is not a directory")
        }
    }
}
