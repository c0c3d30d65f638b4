import DarkroomSystem
import Glibc

/// Opens a `ConfinedFile` without following any symbolic link, so that what is read is what the
/// policy admitted.
///
/// The gap between `realpath` and `open` (TOCTOU) is closed by walking down from the admitted root
/// with `openat`, one component at a time, each with `O_NOFOLLOW`. The resolved path contains no
/// links, so a link met on the way means the tree changed after the check, and the open is
/// refused. Comparing `st_dev`/`st_ino` of a `stat` and an `fstat` of the same path would not be
/// enough: a directory above the file swapped for a link after the check is followed by both the
/// `stat` and the `open`, so they agree on a file outside the root. The walk cannot be fooled that
/// way. (Linux's `openat2(RESOLVE_BENEATH)` would do the same in one call, but Glibc has no
/// wrapper for it.)
///
/// The last component is `fstatat`'ed (no follow) before it is opened, so devices, FIFOs and
/// sockets are refused without ever being opened (opening some devices has side effects); it is
/// then opened with `O_NOFOLLOW | O_NONBLOCK` (a FIFO swapped in at that instant cannot block the
/// open) and `fstat`'ed again, and the device and inode must match the first look.
enum ConfinedFileOpener {
    /// An open regular file and its status.
    struct OpenFile {
        let descriptor: Int32
        let info: stat
    }

    /// Opens `file`; the caller closes `descriptor`.
    static func openFile(_ file: ConfinedFile, source: String) throws(SourceError) -> OpenFile {
        let components = file.resolved.components(below: file.base)
        guard let last = components.last else {
            // The path is the root directory itself.
            throw FileErrors.notRegular(file.resolved, mode: S_IFDIR, source: source)
        }
        var directory = file.base.withCString { open($0, directoryFlags) }
        guard directory >= 0 else { throw walkError(Errno(errno), file: file, source: source) }
        defer { close(directory) }
        for component in components.dropLast() {
            let next = FilePath(component).withCString { openat(directory, $0, directoryFlags) }
            guard next >= 0 else { throw walkError(Errno(errno), file: file, source: source) }
            close(directory)
            directory = next
        }

        var first = stat()
        guard FilePath(last).withCString({ fstatat(directory, $0, &first, AT_SYMLINK_NOFOLLOW) }) == 0 else {
            throw walkError(Errno(errno), file: file, source: source)
        }
        if first.st_mode & S_IFMT == S_IFLNK { throw FileErrors.changedWhileOpening(file.resolved, source: source) }
        guard first.st_mode & S_IFMT == S_IFREG else {
            throw FileErrors.notRegular(file.resolved, mode: first.st_mode, source: source)
        }

        let descriptor = FilePath(last).withCString {
            openat(directory, $0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        }
        guard descriptor >= 0 else { throw walkError(Errno(errno), file: file, source: source) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = Errno(errno)
            close(descriptor)
            throw FileErrors.error(error, path: file.resolved, source: source, operation: "reading the status of")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw FileErrors.notRegular(file.resolved, mode: info.st_mode, source: source)
        }
        guard info.st_dev == first.st_dev, info.st_ino == first.st_ino else {
            close(descriptor)
            throw FileErrors.changedWhileOpening(file.resolved, source: source)
        }
        return OpenFile(descriptor: descriptor, info: info)
    }

    /// Status of the file without opening it (for cache keys): the same no-follow checks as
    /// `openFile`, on the resolved path.
    static func status(of file: ConfinedFile, source: String) throws(SourceError) -> stat {
        var info = stat()
        guard file.resolved.withCString({ fstatat(AT_FDCWD, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else {
            throw FileErrors.error(Errno(errno), path: file.resolved, source: source, operation: "reading the status of")
        }
        if info.st_mode & S_IFMT == S_IFLNK { throw FileErrors.changedWhileOpening(file.resolved, source: source) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw FileErrors.notRegular(file.resolved, mode: info.st_mode, source: source)
        }
        return info
    }

    /// A link met during the walk (`ELOOP`, or `ENOTDIR` for a link opened with `O_DIRECTORY`)
    /// means the tree changed after `realpath`; other errors map as usual.
    private static func walkError(_ error: Errno, file: ConfinedFile, source: String) -> SourceError {
        if error.code == ELOOP || error.code == ENOTDIR {
            return FileErrors.changedWhileOpening(file.resolved, source: source)
        }
        return FileErrors.error(error, path: file.resolved, source: source, operation: "opening")
    }

    /// Directories are opened only to walk through them. On Linux `O_PATH` needs no read
    /// permission, only search permission, just like path resolution by the kernel; its value is
    /// not exported by the Glibc module, and is 0o10000000 on every architecture Swift supports.
    private static var directoryFlags: Int32 {
        return 0o10_000_000 | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
    }
}
