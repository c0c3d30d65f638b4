#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies a file so that the destination is either absent or whole: the bytes go to a temporary
/// file beside it, are flushed to disk, and are renamed over it. A reader never sees half a result.
enum AtomicFileCopy {
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// The source does not exist (any more).
        case sourceMissing(String)
        case system(String, path: String, errno: Int32)

        var description: String {
            switch self {
            case .sourceMissing(let path): return "\(path) does not exist"
            case let .system(what, path, code): return "cannot \(what) \(path): \(String(cString: strerror(code)))"
            }
        }
    }

    /// Copies `source` to `destination` (`-` is standard output; an existing directory receives
    /// the file under the source's name). Returns the path written and the byte count.
    @discardableResult
    static func copy(_ source: String, to destination: String) throws(Failure) -> (path: String, bytes: Int) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR || code == ESTALE { throw .sourceMissing(source) }
            throw .system("open", path: source, errno: code)
        }
        defer { close(input) }
        if destination == "-" { return ("-", try pump(input, source: source, into: 1, path: "standard output")) }

        var target = destination
        var info = stat()
        if stat(destination, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            let name = source.split(separator: "/").last.map(String.init) ?? "result"
            target = destination.hasSuffix("/") ? destination + name : destination + "/" + name
        }
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        let baseName = slash.map { String(target[target.index(after: $0)...]) } ?? target
        let temporary = "\(directory)/.\(baseName).\(getpid())-\(String(UInt32.random(in: .min ... .max), radix: 16)).tmp"
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard output >= 0 else { throw .system("create a file in", path: directory, errno: errno) }
        var committed = false
        defer {
            if !committed { unlink(temporary) }
        }
        let bytes: Int
        do {
            bytes = try pump(input, source: source, into: output, path: target)
        } catch {
            close(output)
            throw error
        }
        guard fsync(output) == 0 else {
            let code = errno
            close(output)
            throw .system("flush", path: target, errno: code)
        }
        guard close(output) == 0 else { throw .system("write", path: target, errno: errno) }
        guard rename(temporary, target) == 0 else { throw .system("rename a temporary file to", path: target, errno: errno) }
        committed = true
        return (target, bytes)
    }

    /// Reads `input` to its end and writes everything to `output`.
    private static func pump(_ input: Int32, source: String, into output: Int32, path: String) throws(Failure) -> Int {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system("read", path: source, errno: errno)
            }
            if count == 0 { return total }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { write(output, $0.baseAddress! + offset, count - offset) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw .system("write", path: path, errno: errno)
                }
                offset += written
            }
            total += count
        }
    }
}
