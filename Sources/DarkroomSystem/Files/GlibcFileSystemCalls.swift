import Glibc

/// `FileSystemCalls` over the C library: each requirement is its system call, with -1 turned
/// into the `Errno`. Stateless: every writer defaults to one of these.
public struct GlibcFileSystemCalls: FileSystemCalls {
    public init() {}

    public func openat(_ path: String, in directory: Int32, flags: Int32, mode: mode_t) throws(Errno) -> Int32 {
        let descriptor = Glibc.openat(directory, path, flags, mode)
        guard descriptor >= 0 else { throw Errno.current }
        return descriptor
    }

    public func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        let written = Glibc.write(descriptor, bytes.baseAddress, bytes.count)
        guard written >= 0 else { throw Errno.current }
        return written
    }

    public func fsync(_ descriptor: Int32) throws(Errno) {
        guard Glibc.fsync(descriptor) == 0 else { throw Errno.current }
    }

    public func close(_ descriptor: Int32) throws(Errno) {
        guard Glibc.close(descriptor) == 0 else { throw Errno.current }
    }

    public func ftruncate(_ descriptor: Int32, to length: Int64) throws(Errno) {
        guard Glibc.ftruncate(descriptor, off_t(length)) == 0 else { throw Errno.current }
    }

    public func renameat(_ from: String, to: String, in directory: Int32) throws(Errno) {
        guard Glibc.renameat(directory, from, directory, to) == 0 else { throw Errno.current }
    }

    public func linkat(_ from: String, as name: String, in directory: Int32) throws(Errno) {
        guard Glibc.linkat(directory, from, directory, name, 0) == 0 else { throw Errno.current }
    }

    public func unlinkat(_ path: String, in directory: Int32) throws(Errno) {
        guard Glibc.unlinkat(directory, path, 0) == 0 else { throw Errno.current }
    }

    public func mkdir(_ path: String, mode: mode_t) throws(Errno) {
        guard Glibc.mkdir(path, mode) == 0 else { throw Errno.current }
    }

    public func flock(_ descriptor: Int32, _ operation: Int32) throws(Errno) {
        guard flockFunction(descriptor, operation) == 0 else { throw Errno.current }
    }
}

/// `flock(2)`: named apart because inside the type `Glibc.flock` means the C struct of `fcntl`
/// locks, and the bare name the requirement.
private func flockFunction(_ descriptor: Int32, _ operation: Int32) -> Int32 {
    flock(descriptor, operation)
}
