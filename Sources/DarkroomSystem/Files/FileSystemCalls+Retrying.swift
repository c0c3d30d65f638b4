import Glibc

/// How Darkroom makes the calls: interrupted calls (`EINTR`) are made again, and a write that
/// wrote less than it was given goes on with the rest. Every writer calls these rather than the
/// requirements, so the policy holds whatever `FileSystemCalls` is underneath.
extension FileSystemCalls {
    /// Calls `body` again for as long as it fails with `EINTR`: a signal delivered during a call
    /// is no failure, and the right answer is always to call again.
    @inlinable
    public func retryingInterrupts<Result>(_ body: () throws(Errno) -> Result) throws(Errno) -> Result {
        while true {
            do throws(Errno) {
                return try body()
            } catch {
                if error.code != EINTR { throw error }
            }
        }
    }

    /// Opens `path` (see `openat`), retrying `EINTR`.
    public func open(_ path: String, in directory: Int32 = AT_FDCWD, flags: Int32, mode: mode_t = 0) throws(Errno) -> Int32 {
        try retryingInterrupts { () throws(Errno) in try openat(path, in: directory, flags: flags, mode: mode) }
    }

    /// Writes all of `bytes`, going on after short writes and retrying `EINTR`. Throws the errno
    /// of the write that failed; bytes written before it stay in the file (the caller removes or
    /// cuts them). A write of zero bytes, which would otherwise loop for ever, counts as `EIO`.
    public func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let rest = UnsafeRawBufferPointer(start: base + done, count: bytes.count - done)
            let written = try retryingInterrupts { () throws(Errno) in try write(descriptor, rest) }
            guard written > 0 else { throw Errno(EIO) }
            done += written
        }
    }

    /// `writeAll` of an array.
    public func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(Errno) {
        let failure: Errno? = bytes.withUnsafeBytes { raw in
            do throws(Errno) {
                try writeAll(descriptor, raw)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// `fsync`, retrying `EINTR`.
    public func sync(_ descriptor: Int32) throws(Errno) {
        try retryingInterrupts { () throws(Errno) in try fsync(descriptor) }
    }

    /// `ftruncate`, retrying `EINTR`.
    public func truncate(_ descriptor: Int32, to length: Int64) throws(Errno) {
        try retryingInterrupts { () throws(Errno) in try ftruncate(descriptor, to: length) }
    }

    /// `renameat`, retrying `EINTR`.
    public func rename(_ from: String, to: String, in directory: Int32 = AT_FDCWD) throws(Errno) {
        try retryingInterrupts { () throws(Errno) in try renameat(from, to: to, in: directory) }
    }

    /// `linkat`, retrying `EINTR`.
    public func link(_ from: String, as name: String, in directory: Int32 = AT_FDCWD) throws(Errno) {
        try retryingInterrupts { () throws(Errno) in try linkat(from, as: name, in: directory) }
    }

    /// `unlinkat`, retrying `EINTR`.
    public func remove(_ path: String, in directory: Int32 = AT_FDCWD) throws(Errno) {
        try retryingInterrupts { () throws(Errno) in try unlinkat(path, in: directory) }
    }

    /// Creates `path` and any missing parents with `mode` (less the umask); a directory that
    /// exists counts as success. Throws the errno of the first `mkdir` that failed otherwise.
    public func makeDirectories(_ path: String, mode: mode_t) throws(Errno) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + part
            do throws(Errno) {
                try retryingInterrupts { () throws(Errno) in try mkdir(current, mode: mode) }
            } catch {
                if error.code != EEXIST { throw error }
            }
        }
    }

    /// Takes an exclusive `flock` on `descriptor` if nobody holds one (`LOCK_NB`), retrying
    /// `EINTR`: true when taken, false when another open file holds it.
    public func tryLock(_ descriptor: Int32) throws(Errno) -> Bool {
        do throws(Errno) {
            try retryingInterrupts { () throws(Errno) in try flock(descriptor, LOCK_EX | LOCK_NB) }
            return true
        } catch {
            if error.code == EWOULDBLOCK { return false }
            throw error
        }
    }
}
