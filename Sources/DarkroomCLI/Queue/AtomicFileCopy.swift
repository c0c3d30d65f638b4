import DarkroomSystem
import Glibc

/// Copies a file so that the destination is either absent or whole: the bytes go to a temporary
/// file beside it, are flushed to disk, and are renamed over it (DarkroomSystem's
/// `AtomicFileWriter` with `syncsData`). A reader never sees half a result.
enum AtomicFileCopy {
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// The source does not exist (any more).
        case sourceMissing(String)
        case system(String, path: String, errno: Int32)

        var description: String {
            switch self {
            case .sourceMissing(let path): return "\(path) does not exist"
            case .system(let what, let path, let code): return "cannot \(what) \(path): \(Errno(code).message)"
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
        var (writer, baseName) = AtomicFileWriter.forFile(target, options: .init(syncsData: true))
        writer.options.temporaryPrefix = ".\(baseName)."
        writer.options.temporarySuffix = ".tmp"
        let file: PendingFile
        do throws(AtomicFileError) { file = try writer.begin() } catch { throw failure(error, target: target, directory: writer.directory) }
        // A failed copy throws past `file`, which removes the temporary file as it goes.
        let bytes = try pump(input, source: source, into: file.descriptor, path: target)
        do throws(AtomicFileError) { try file.replace(baseName) } catch { throw failure(error, target: target, directory: writer.directory) }
        return (target, bytes)
    }

    /// This command's wording for each step of the atomic write.
    private static func failure(_ error: AtomicFileError, target: String, directory: String) -> Failure {
        let code = error.systemError.code
        switch error.stage {
        case .createDirectory, .createTemporary: return .system("create a file in", path: directory, errno: code)
        case .write, .close: return .system("write", path: target, errno: code)
        case .sync: return .system("flush", path: target, errno: code)
        case .replace, .link: return .system("rename a temporary file to", path: target, errno: code)
        }
    }

    /// Reads `input` to its end and writes everything to `output`.
    private static func pump(_ input: Int32, source: String, into output: Int32, path: String) throws(Failure) -> Int {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { chunk in
                SystemCall.retryingInterrupts { read(input, chunk.baseAddress, chunk.count) }
            }
            if count < 0 { throw .system("read", path: source, errno: errno) }
            if count == 0 { return total }
            let failure = buffer.withUnsafeBytes { SystemCall.writeAll(output, UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            if let failure { throw .system("write", path: path, errno: failure.code) }
            total += count
        }
    }
}
