import Crypto
import DarkroomSystem
import Glibc

/// Reads a job's output from the volume, read only, without trusting the path its event names:
/// the path must lie under a configured root (`--output-root`, `--cache-root`), lexically, with no
/// `.` or `..` component, and it is opened from the root one component at a time with
/// `O_NOFOLLOW` (`openat`), so a symbolic link anywhere below the root — planted to point at
/// `/etc` or another tenant's files — is refused rather than followed. (Linux's `openat2` with
/// `RESOLVE_BENEATH` would do the same in one call, but glibc has no wrapper for it and Swift
/// cannot call the variadic `syscall`.)
struct OutputFiles: Sendable {
    /// The roots, without a trailing `/`; the cache root is the one whose files are evicted.
    let outputRoot: String?
    let cacheRoot: String?
    let maxBytes: Int

    /// The file's bytes and their SHA-256 (the ETag).
    struct Contents: Sendable {
        var bytes: [UInt8]
        var sha256: String
    }

    init(outputRoot: String?, cacheRoot: String?, maxBytes: Int) {
        func trimmed(_ root: String?) -> String? { root.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 } }
        self.outputRoot = trimmed(outputRoot)
        self.cacheRoot = trimmed(cacheRoot)
        self.maxBytes = maxBytes
    }

    /// The file at `path` (as a `succeeded` event names it). Throws `api.output-refused` when it
    /// is not under a root or a link is on the way, `api.output-gone` when it no longer exists.
    func read(_ path: String) throws(APIError) -> Contents {
        let refused = APIError(.outputRefused, "the output's path is not under this API's --output-root or --cache-root, or passes through a link")
        let roots = [outputRoot, cacheRoot].compactMap { $0 }
        guard let root = roots.first(where: { path.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else { throw refused }
        let components = path.dropFirst(root == "/" ? 1 : root.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard !components.isEmpty, !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { throw refused }
        let gone = APIError(
            .outputGone,
            root == cacheRoot
                ? "the result lived only in the cache and was evicted; enqueue the job again (with an output directory to keep it)"
                : "the output file no longer exists")
        var directory = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw APIError(.internal, "cannot open the root \(root): errno \(errno)") }
        defer { close(directory) }
        for (index, component) in components.enumerated() {
            let last = index == components.count - 1
            let flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY)
            let next = openat(directory, String(component), flags)
            guard next >= 0 else {
                switch errno {
                case ENOENT: throw gone
                case ELOOP, ENOTDIR, EACCES: throw refused
                default: throw APIError(.internal, "cannot open the output: errno \(errno)")
                }
            }
            close(directory)
            directory = next
        }
        return try Self.readRegularFile(directory, maxBytes: maxBytes, refused: refused)
    }

    /// All of an open regular file (a FIFO or device under the root is refused, not read).
    private static func readRegularFile(_ fd: Int32, maxBytes: Int, refused: APIError) throws(APIError) -> Contents {
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { throw refused }
        guard status.st_size <= maxBytes else { throw APIError(.outputRefused, "the output is larger than this API serves (\(maxBytes) bytes)") }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(done)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw APIError(.internal, "reading the output failed: errno \(errno)") }
            done += count
        }
        return Contents(bytes: bytes, sha256: HexDigits.lowercase(SHA256.hash(data: bytes)))
    }
}
