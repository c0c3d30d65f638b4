import Glibc

/// Reads the small files credentials come from (a credentials file, a web-identity token), and
/// tells whether one changed since it was read.
///
/// A file is identified by what `stat` says of the path, symbolic links followed: device, inode,
/// size, modification and change times. An atomic replace (a new file renamed over the old one)
/// and a Kubernetes secret update (the `..data` link swapped to a new directory) both give a new
/// inode, so either is noticed by one `stat`. Messages name the file and what is wrong, never
/// what it holds.
enum S3SecretFile {
    /// What `stat` says identifies one version of a file.
    struct Identity: Sendable, Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var modifiedNanoseconds: Int
        var changed: Int64
        var changedNanoseconds: Int

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec)
            modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec)
            changedNanoseconds = Int(info.st_ctim.tv_nsec)
        }
    }

    /// The largest file read: credentials and tokens are a few kilobytes.
    static let maxBytes = 1 << 20

    /// The identity of `path` now (links followed), or an error naming `what` and the path.
    static func identity(_ path: String, what: String) throws(S3Error) -> Identity {
        var info = stat()
        guard stat(path, &info) == 0 else { throw failure(path, what: what, errno: errno) }
        return Identity(info)
    }

    /// The whole file and the identity of what was read (from the open descriptor, so a file
    /// replaced between a `stat` and the read is still read whole and identified as read).
    static func read(_ path: String, what: String) throws(S3Error) -> (text: String, identity: Identity) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, what: what, errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(path, what: what, errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw S3Error(.credentials, "\(what) '\(path)' is not a regular file") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw failure(path, what: what, errno: errno) }
            if count == 0 { break }
            bytes += chunk[0..<count]
            guard bytes.count <= maxBytes else { throw S3Error(.credentials, "\(what) '\(path)' is larger than \(maxBytes) bytes") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw S3Error(.credentials, "\(what) '\(path)' is not UTF-8 text")
        }
        return (text, Identity(info))
    }

    private static func failure(_ path: String, what: String, errno code: Int32) -> S3Error {
        let reason: String
        switch code {
        case ENOENT: reason = "does not exist"
        case EACCES: reason = "cannot be read (permission denied)"
        case EISDIR: reason = "is a directory"
        default: reason = "cannot be read (\(String(cString: strerror(code))))"
        }
        return S3Error(.credentials, "\(what) '\(path)' \(reason)")
    }

    /// True when `error` says the file does not exist.
    static func isMissing(_ error: S3Error) -> Bool { error.message.hasSuffix("' does not exist") }
}
