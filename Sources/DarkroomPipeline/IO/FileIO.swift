#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain POSIX file reading and atomic writing: no Foundation in the hot path, and errors that
/// name the file and say what went wrong.
public enum FileIO {
    /// Reads a whole regular file. Refuses directories, devices and FIFOs (reading a FIFO or
    /// `/dev/zero` would never end) and files over `maxBytes`.
    public static func read(_ path: String, maxBytes: Int = 256 << 20) throws(FileIOError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .cannotOpen(path: path, reason: errnoText()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .cannotOpen(path: path, reason: errnoText()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .notARegularFile(path: path)
        }
        let size = Int(info.st_size)
        guard size <= maxBytes else { throw .tooLarge(path: path, bytes: size, limit: maxBytes) }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + done, size - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, reason: errnoText())
            }
            if n == 0 { break } // the file shrank while we read it
            done += n
        }
        if done < size { bytes.removeLast(size - done) }
        return bytes
    }

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

/// Why a file could not be read or written.
public enum FileIOError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case cannotRead(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case notARegularFile(path: String)
    case tooLarge(path: String, bytes: Int, limit: Int)

    public var code: String {
        switch self {
        case .cannotOpen: return "file.cannot-open"
        case .cannotRead: return "file.cannot-read"
        case .cannotWrite: return "file.cannot-write"
        case .notARegularFile: return "file.not-regular"
        case .tooLarge: return "file.too-large"
        }
    }

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): return "\(path): cannot open (\(reason))"
        case let .cannotRead(path, reason): return "\(path): cannot read (\(reason))"
        case let .cannotWrite(path, reason): return "\(path): cannot write (\(reason))"
        case let .notARegularFile(path): return "\(path): not a regular file (directories, devices and FIFOs are refused)"
        case let .tooLarge(path, bytes, limit): return "\(path): \(bytes) bytes is over the \(limit)-byte source limit"
        }
    }
}

/// `read(2)`, named apart from `FileIO.read` so calls inside `FileIO` are unambiguous.
@inline(__always)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
