import DarkroomSystem
import Glibc

/// Maps `errno` values from file calls to `SourceError`s.
///
/// Permission errors (`EACCES`, `EPERM`) become `.forbidden`, not `.io`: the file exists but this
/// process may not read it, which is what HTTP 403 means, and like a 403 it is permanent —
/// retrying the job cannot help until someone changes the permissions, so the queue should fail
/// it at once with a clear code instead of retrying (`.io` is transient). Other I/O failures
/// (`EIO`, `EMFILE`, `ENOMEM`, …) stay `.io` and are retried.
enum FileErrors {
    static func error(_ error: Errno, path: FilePath, source: String, operation: String) -> SourceError {
        switch error.code {
        case ENOENT, ENOTDIR:
            return SourceError(.notFound, source: source, "no such file: \(path.display)")
        case EACCES, EPERM:
            return SourceError(
                .forbidden, source: source,
                "permission denied \(operation) \(path.display): this process (uid \(getuid())) "
                    + "may not read it; fix its permissions")
        case ELOOP:
            return SourceError(
                .invalid, source: source,
                "too many levels of symbolic links \(operation) \(path.display)")
        case ENAMETOOLONG:
            return SourceError(.invalid, source: source, "the path is too long: \(path.display)")
        default:
            return SourceError(.io, source: source, "\(operation) \(path.display) failed: \(error.message)")
        }
    }

    /// The file changed between resolving its path and opening it (a component became a symbolic
    /// link, or another file took its place). Refused: it is what an attack looks like.
    static func changedWhileOpening(_ path: FilePath, source: String) -> SourceError {
        SourceError(
            .refused, source: source,
            "\(path.display) changed while it was being opened (a component was replaced or became a "
                + "symbolic link); refused")
    }

    /// The file's kind, for `.notRegularFile` messages.
    static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }

    static func notRegular(_ path: FilePath, mode: mode_t, source: String) -> SourceError {
        SourceError(
            .notRegularFile, source: source,
            "\(path.display) is \(kindName(mode)); only regular files can be image sources")
    }
}
