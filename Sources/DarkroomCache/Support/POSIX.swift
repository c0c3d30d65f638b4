import DarkroomSystem
import Glibc

/// The few system calls the disk cache needs, wrapped so callers get an `errno` instead of `-1`
/// and never forget `EINTR`
/// (the shared pieces, `Errno` and `SystemCall`, are in DarkroomSystem). No Foundation: these run on every cache hit.
enum POSIX {
    /// Wall-clock time in nanoseconds since the epoch: the clock file modification times use, so
    /// ages are comparable with `st_mtim` (on NFS, with the server's clock, give or take skew).
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// The modification time of `info` in nanoseconds since the epoch.
    static func modificationTime(_ info: stat) -> Int64 {
        return Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
    }

    static func isRegularFile(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFREG }
    static func isDirectory(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFDIR }

    /// `stat` without following a final symlink; the errno on failure.
    static func status(_ path: String) -> Result<stat, Errno> {
        var info = stat()
        return lstat(path, &info) == 0 ? .success(info) : .failure(Errno(errno))
    }

    /// Reads exactly `count` bytes from `fd` into a new array; fails with the errno, or with 0
    /// for a file that turned out shorter than `count`.
    static func readExactly(_ fd: Int32, count: Int) -> Result<[UInt8], Errno> {
        var failure: Errno?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            while initialized < count {
                let n = SystemCall.retryingInterrupts { read(fd, base + initialized, count - initialized) }
                if n < 0 {
                    failure = .current
                    return
                }
                if n == 0 {
                    failure = Errno(0)
                    return
                }
                initialized += n
            }
        }
        if let failure { return .failure(failure) }
        return .success(bytes)
    }

    /// `mkdir`, where an existing directory counts as success.
    static func makeDirectory(_ path: String) -> Int32? {
        if mkdir(path, 0o777) == 0 || errno == EEXIST { return nil }
        return errno
    }

    /// Creates `path` and any missing parents (mode 0777 less the umask, so an operator can share
    /// a cache between users with `umask 002`).
    static func makeDirectories(_ path: String) -> Int32? {
        FileSystem.makeDirectories(path, mode: 0o777)?.code
    }

    /// Sets the modification (and access) time of `path` to now. Uses `UTIME_NOW` for both, which
    /// any user with write access may do (not only the owner), and which NFS sends as "server
    /// time", so every host stamps entries with one clock.
    @discardableResult
    static func touch(_ path: String) -> Bool {
        utimensat(AT_FDCWD, path, nil, 0) == 0
    }

    /// This machine's host name, reduced to characters safe in a file name.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown-host" }
        let name = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let safe = name.unicodeScalars.map { scalar -> Character in
            let ok =
                (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
                || (scalar >= "0" && scalar <= "9") || scalar == "-" || scalar == "_"
            return ok ? Character(scalar) : "_"
        }
        return safe.isEmpty ? "unknown-host" : String(safe.prefix(64))
    }
}
