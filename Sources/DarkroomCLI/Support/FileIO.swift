import DarkroomSystem
import Glibc

/// Atomic writing of outputs (through DarkroomSystem's `AtomicFileWriter`): no Foundation in the
/// hot path, and errors that name the file and say what went wrong. (Sources are read by
/// `FileProvider`, which confines them.)
enum FileIO {
    /// Writes `bytes` to `path` atomically: a temporary file in the same directory, fsync'd
    /// only when `durable`, then renamed over `path`. A reader sees the old file or the new
    /// one, never half of one; a crash leaves at most a `.darkroom-tmp-*` file behind.
    static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = false) throws(FileIOError) {
        // 0644 whatever the umask: outputs are for other users and web servers to read.
        var (writer, name) = AtomicFileWriter.forFile(path, options: .init(mode: 0o644, ignoresUmask: true, syncsData: durable))
        writer.options.temporaryPrefix = ".darkroom-tmp-\(name)-"
        do throws(AtomicFileError) {
            try writer.write(bytes, replacing: name)
        } catch {
            throw .cannotWrite(path: path, reason: error.systemError.message, systemError: error.systemError.code)
        }
    }

    /// True when `path` exists and is a directory.
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates `path` and its parents (mode 0755); fine if it exists.
    static func createDirectory(_ path: String) throws(FileIOError) {
        if let failure = FileSystem.makeDirectories(path, mode: 0o755) {
            throw .cannotWrite(path: path, reason: failure.message, systemError: failure.code)
        }
        guard isDirectory(path) else { throw .cannotWrite(path: path, reason: "exists and is not a directory") }
    }
}

/// Why an output could not be written. Transient when the volume or quota is full (someone may
/// free space); any other failure (permissions, a missing mount) needs a person.
public enum FileIOError: CodedDarkroomError, Equatable {
    /// `systemError` is the errno behind `reason`, when a system call failed.
    case cannotWrite(path: String, reason: String, systemError: Int32? = nil)

    /// Stable codes for scripts and job records.
    public enum Code: String, CaseIterable, Sendable {
        case cannotWrite = "file.cannot-write"
    }

    public var code: Code {
        switch self {
        case .cannotWrite: return .cannotWrite
        }
    }

    public var messageNamesSource: Bool { true }

    public var systemError: Int32? {
        switch self {
        case .cannotWrite(_, _, let systemError): return systemError
        }
    }

    /// A full disk or quota (by errno, not by the message's text).
    public var isTransient: Bool { systemError.map { Errno($0).isOutOfSpace } ?? false }

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason, _): return "\(path): cannot write (\(reason))"
        }
    }
}
