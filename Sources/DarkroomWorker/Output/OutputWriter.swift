#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif

/// Writes a job's result into its output directory, atomically, inside the allowed roots, and
/// without overwriting another job's file.
///
/// The directory is opened once and everything after happens relative to that descriptor
/// (`openat`, `linkat`, `renameat`), after checking that what was opened lies inside an allowed
/// root — so no symlink, even one swapped in meanwhile, can redirect the write. The bytes go to
/// a temporary file, which is then hard-linked to `preferred`: a link fails when the name exists,
/// so two jobs racing for one name cannot both get it, and a reader never sees half a file. If
/// the name holds the same bytes (this job ran before, or an identical job did), that file is the
/// result; if it holds other bytes, the result is renamed to `fallback` (the job id's name, which
/// only this job writes). File systems without hard links fall back to check-then-rename.
enum OutputWriter {
    /// Writes `bytes` and returns the path of the result file.
    static func write(_ bytes: [UInt8], directory: String, roots: OutputRoots,
                      preferred: String, fallback: String, durable: Bool = true) throws(WorkerError) -> String {
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

        let temporary = try writeTemporary(bytes, in: dir, directory: directory, durable: durable)
        var keepTemporary = false
        defer { if !keepTemporary { unlinkat(dir, temporary, 0) } }
        // The new name is durable once the directory is synced (a crash cannot undo the link).
        defer { if durable { _ = fsync(dir) } }

        if linkat(dir, temporary, dir, preferred, 0) == 0 { return directory + "/" + preferred }
        let linkError = errno
        switch linkError {
        case EEXIST:
            if holds(dir, preferred, bytes) { return directory + "/" + preferred }
        case EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS:
            // No hard links here (some FUSE and SMB mounts): take the name if it is free.
            var info = stat()
            if fstatat(dir, preferred, &info, AT_SYMLINK_NOFOLLOW) != 0 {
                guard renameat(dir, temporary, dir, preferred) == 0 else {
                    throw failure(errno, path: directory + "/" + preferred, doing: "write")
                }
                keepTemporary = true
                return directory + "/" + preferred
            }
            if holds(dir, preferred, bytes) { return directory + "/" + preferred }
        default:
            throw failure(linkError, path: directory + "/" + preferred, doing: "write")
        }
        guard renameat(dir, temporary, dir, fallback) == 0 else {
            throw failure(errno, path: directory + "/" + fallback, doing: "write")
        }
        keepTemporary = true
        return directory + "/" + fallback
    }

    /// The real path of an open directory (Linux: `/proc/self/fd/N`); `realpath` elsewhere.
    static func realPath(of descriptor: Int32, fallback: String?) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard count > 0 else { return fallback.flatMap(OutputRoots.realPath) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A complete temporary file `.darkroom-tmp-*` in the open directory (same file system, so
    /// link and rename stay atomic); a crash leaves at most such a file behind.
    private static func writeTemporary(_ bytes: [UInt8], in dir: Int32, directory: String, durable: Bool) throws(WorkerError) -> String {
        var name = ""
        var fd: Int32 = -1
        for _ in 0..<8 {
            name = ".darkroom-tmp-" + String(UInt64.random(in: .min ... .max), radix: 36)
            fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        guard fd >= 0 else { throw failure(errno, path: directory, doing: "write") }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                unlinkat(dir, name, 0)
                throw failure(code, path: directory, doing: "write")
            }
            written += count
        }
        // On disk before it gets its name: the job is acknowledged as succeeded right after, so a
        // host crash must not leave an empty or partial file under the result's name.
        let synced = !durable || fsync(fd) == 0
        let syncError = errno
        guard synced, close(fd) == 0 else {
            let code = synced ? errno : syncError
            if !synced { close(fd) }
            unlinkat(dir, name, 0)
            throw failure(code, path: directory, doing: "write")
        }
        return name
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
        var done = 0
        while done < existing.count {
            let count = existing.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return existing == bytes
    }

    /// The `WorkerError` for a failed system call: a full disk (or quota) and the errors of a
    /// busy network file system are transient; permissions and the rest are not.
    static func failure(_ code: Int32, path: String, doing what: String) -> WorkerError {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT:
            return WorkerError(code: "output.disk-full",
                               message: "\(path): cannot \(what) (\(reason)); free space on the output volume", isTransient: true)
        case EIO, ESTALE, ETIMEDOUT, EINTR, EAGAIN, ENFILE, EMFILE, ENOMEM, EBUSY:
            return WorkerError(code: "output.io", message: "\(path): cannot \(what) (\(reason))", isTransient: true)
        default:
            return WorkerError(code: "output.cannot-write",
                               message: "\(path): cannot \(what) (\(reason)); check the output directory's owner and mode",
                               isTransient: false)
        }
    }
}
