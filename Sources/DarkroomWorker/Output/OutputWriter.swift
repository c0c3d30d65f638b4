import DarkroomSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a job's result into its output directory, atomically, inside the allowed roots, and
/// without overwriting another job's file.
///
/// The directory is opened once and everything after happens relative to that descriptor
/// (`openat`, `linkat`, `renameat`, through DarkroomSystem's `AtomicFileWriter`), after checking that what was opened lies inside an allowed
/// root — so no symlink, even one swapped in meanwhile, can redirect the write. The bytes go to
/// a temporary file, which is then hard-linked to `preferred`: a link fails when the name exists,
/// so two jobs racing for one name cannot both get it, and a reader never sees half a file. If
/// the name holds the same bytes (this job ran before, or an identical job did), that file is the
/// result; if it holds other bytes, the result is renamed to `fallback` (the job id's name, which
/// only this job writes). File systems without hard links fall back to check-then-rename.
enum OutputWriter {
    /// Writes `bytes` and returns the path of the result file.
    static func write(
        _ bytes: [UInt8], directory: String, roots: OutputRoots,
        preferred: String, fallback: String, durable: Bool = true
    ) throws(WorkerError) -> String {
        var dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir < 0, errno == ENOENT {
            // Prepared by an earlier job, then removed (a clean-up between batches): create it again
            // rather than failing every later job into it for good.
            roots.forget(directory)
            _ = try roots.prepare(directory)
            dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard dir >= 0 else { throw failure(errno, path: directory, doing: "open the directory") }
        defer { close(dir) }
        guard let opened = realPath(of: dir, fallback: directory), roots.isInsideRealRoot(opened) else {
            throw .outputNotAllowed(directory, roots: roots.roots)
        }

        // The temporary file is created, linked and renamed through `dir`, never by path. Synced
        // before it gets its name when `durable`: the job is acknowledged as succeeded right after,
        // so a host crash must not leave an empty or partial file under the result's name; the
        // directory is synced too, so a crash cannot undo the new name.
        let writer = AtomicFileWriter(
            directoryDescriptor: dir, displayPath: directory,
            options: .init(mode: 0o644, syncsData: durable, syncsDirectory: durable))
        let file: PendingFile
        let linkError: Errno?
        do throws(AtomicFileError) {
            file = try writer.begin()
            try file.write(bytes)
            // A link fails when the name exists, so two jobs racing for one name cannot both get it.
            linkError = try file.link(as: preferred)
        } catch {
            throw failure(error.systemError.code, path: directory, doing: "write")
        }
        guard let linkError else { return directory + "/" + preferred }
        switch linkError.code {
        case EEXIST:
            if holds(dir, preferred, bytes) { return directory + "/" + preferred }
        case EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS:
            // No hard links here (some FUSE and SMB mounts): take the name if it is free.
            var info = stat()
            if fstatat(dir, preferred, &info, AT_SYMLINK_NOFOLLOW) != 0 {
                do throws(AtomicFileError) { try file.replace(preferred) } catch {
                    throw failure(error.systemError.code, path: directory + "/" + preferred, doing: "write")
                }
                return directory + "/" + preferred
            }
            if holds(dir, preferred, bytes) { return directory + "/" + preferred }
        default:
            throw failure(linkError.code, path: directory + "/" + preferred, doing: "write")
        }
        // The name holds another job's bytes: this job's result takes the job id's name.
        do throws(AtomicFileError) { try file.replace(fallback) } catch {
            throw failure(error.systemError.code, path: directory + "/" + fallback, doing: "write")
        }
        return directory + "/" + fallback
    }

    /// The real path of an open directory (Linux: `/proc/self/fd/N`); `realpath` elsewhere.
    static func realPath(of descriptor: Int32, fallback: String?) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard count > 0 else { return fallback.flatMap(OutputRoots.realPath) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether the regular file `name` in `dir` holds exactly `bytes`.
    private static func holds(_ dir: Int32, _ name: String, _ bytes: [UInt8]) -> Bool {
        // O_NONBLOCK: a FIFO planted under the name must not block this thread (and the job) forever.
        let fd = openat(dir, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == bytes.count else { return false }
        var existing = [UInt8](repeating: 0, count: bytes.count)
        guard case .success(let count) = existing.withUnsafeMutableBytes({ SystemCall.readFully(fd, into: $0) }),
            count == bytes.count
        else { return false }
        return existing == bytes
    }

    /// The `WorkerError` for a failed system call: a full disk (or quota) and the errors of a
    /// busy network file system are transient; permissions and the rest are not.
    static func failure(_ code: Int32, path: String, doing what: String) -> WorkerError {
        let errno = Errno(code)
        let reason = errno.message
        if errno.isOutOfSpace {
            return WorkerError(
                code: .diskFull, message: "\(path): cannot \(what) (\(reason)); free space on the output volume",
                isTransient: true, systemError: code)
        }
        if errno.isTransientIO {
            return WorkerError(code: .io, message: "\(path): cannot \(what) (\(reason))", isTransient: true, systemError: code)
        }
        return WorkerError(
            code: .cannotWrite,
            message: "\(path): cannot \(what) (\(reason)); check the output directory's owner and mode",
            isTransient: false, systemError: code)
    }
}
