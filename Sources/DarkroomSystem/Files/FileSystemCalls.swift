import Glibc

/// The file-system calls Darkroom's writers make, one system call per requirement: the seam
/// between the writers (`AtomicFileWriter`, the coordinator's event log, the disk cache's entries,
/// the output volume) and the kernel, so a test can put a file system that fails on purpose
/// (a full disk, an `EIO` from `fsync` or `close`, a signal, a short write) under each of them.
///
/// A requirement makes exactly one attempt and reports a failure as the `Errno`, `EINTR`
/// included; callers use the extension (`FileSystemCalls+Retrying.swift`), which retries
/// interrupted calls and completes short writes, so that policy lives once, above every
/// implementation, and a fault injected below it exercises it. `GlibcFileSystemCalls` is the real
/// one. Reads and `fstat`/`lseek`-style queries are not here: they cannot tear a file.
public protocol FileSystemCalls: Sendable {
    /// `openat(2)`: `path` relative to the open directory `directory`, or to the working
    /// directory (or absolute) with `AT_FDCWD`. Returns the new descriptor.
    func openat(_ path: String, in directory: Int32, flags: Int32, mode: mode_t) throws(Errno) -> Int32

    /// One `write(2)`: returns how many bytes it wrote, which may be fewer than given.
    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int

    /// `fsync(2)`.
    func fsync(_ descriptor: Int32) throws(Errno)

    /// `close(2)`. The descriptor is released whatever it reports (Linux frees it first), so it
    /// is never retried, not even after `EINTR`: a retry could close a descriptor another thread
    /// has just been given. A failure means the data may not have reached the file (NFS sends it
    /// at close; a full volume or quota often shows only here).
    func close(_ descriptor: Int32) throws(Errno)

    /// `ftruncate(2)`.
    func ftruncate(_ descriptor: Int32, to length: Int64) throws(Errno)

    /// `renameat(2)` within one directory (`AT_FDCWD`: paths as given).
    func renameat(_ from: String, to: String, in directory: Int32) throws(Errno)

    /// `linkat(2)` within one directory, not following symbolic links.
    func linkat(_ from: String, as name: String, in directory: Int32) throws(Errno)

    /// `unlinkat(2)` of a file (not a directory).
    func unlinkat(_ path: String, in directory: Int32) throws(Errno)

    /// `mkdir(2)`.
    func mkdir(_ path: String, mode: mode_t) throws(Errno)

    /// `flock(2)` with `operation` (`LOCK_EX | LOCK_NB`, `LOCK_UN`…).
    func flock(_ descriptor: Int32, _ operation: Int32) throws(Errno)
}
