#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain POSIX atomic writing of outputs: no Foundation in the hot path, and errors that name the
/// file and say what went wrong. (Sources are read by `FileProvider`, which confines them.)
public enum FileIO {
    /// Writes `bytes` to `path` atomically: a temporary file in the same directory, fsync'd
    /// only when `durable`, then renamed over `path`. A reader sees the old file or the new
    /// one, never half of one; a crash leaves at most a `.darkroom-tmp-*` file behind.
    public static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = false) throws(FileIOError) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(directory.isEmpty ? "/" : directory)/.darkroom-tmp-\(name)-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: errnoText()) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        fchmod(fd, 0o644)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = errnoText()
                close(fd)
                throw .cannotWrite(path: path, reason: reason)
            }
            done += n
        }
        if durable && fsync(fd) != 0 {
            let reason = errnoText()
            close(fd)
            throw .cannotWrite(path: path, reason: reason)
        }
        guard close(fd) == 0 else { throw .cannotWrite(path: path, reason: errnoText()) }
        guard rename(temporary, path) == 0 else { throw .cannotWrite(path: path, reason: errnoText()) }
        ok = true
    }

    /// True when `path` exists and is a directory.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates `path` and its parents (mode 0755); fine if it exists.
    public static func createDirectory(_ path: String) throws(FileIOError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw .cannotWrite(path: path, reason: errnoText())
            }
        }
        guard isDirectory(path) else { throw .cannotWrite(path: path, reason: "exists and is not a directory") }
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// Why an output could not be written.
public enum FileIOError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotWrite(path: String, reason: String)

    public var code: String {
        switch self {
        case .cannotWrite: return "file.cannot-write"
        }
    }

    public var description: String {
        switch self {
        case let .cannotWrite(path, reason): return "\(path): cannot write (\(reason))"
        }
    }
}
