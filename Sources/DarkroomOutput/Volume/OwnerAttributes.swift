import CXattr
import Glibc

/// Who wrote an output file, kept with the file itself in two extended attributes,
/// `user.darkroom.job` and `user.darkroom.batch` (`getfattr -d cat.webp` shows them). Set on the
/// temporary file before it gets its name, so the name never shows without its owner; `linkat`
/// and `rename` keep them (they belong to the inode).
///
/// Best effort by design: a file system without user extended attributes (`ENOTSUP`: some NFS
/// and FUSE mounts, old tmpfs), or one out of room for them, stores the output all the same, and
/// its owner is then unknown: the worker treats such a file as another batch's.
enum OwnerAttributes {
    static let jobKey = "user.darkroom.job"
    static let batchKey = "user.darkroom.batch"

    /// Records `owner` on the open file `descriptor`; failures are ignored (see above).
    static func set(_ owner: OutputOwner, on descriptor: Int32) {
        guard write(jobKey, owner.job, to: descriptor) else { return }
        _ = write(batchKey, owner.batch, to: descriptor)
    }

    /// The owner recorded on the open file `descriptor`, or nil when it has none (or the file
    /// system keeps no extended attributes).
    static func get(from descriptor: Int32) -> OutputOwner? {
        guard let job = read(jobKey, from: descriptor), let batch = read(batchKey, from: descriptor) else { return nil }
        return OutputOwner(job: job, batch: batch)
    }

    private static func write(_ key: String, _ value: String, to descriptor: Int32) -> Bool {
        var bytes = Array(value.utf8)
        return bytes.withUnsafeMutableBytes { buffer in
            fsetxattr(descriptor, key, buffer.baseAddress, buffer.count, 0) == 0
        }
    }

    private static func read(_ key: String, from descriptor: Int32) -> String? {
        // Ids and batches are at most 200 bytes; anything longer is not ours.
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { raw in
            fgetxattr(descriptor, key, raw.baseAddress, raw.count)
        }
        guard count > 0 else { return nil }
        return String(validating: buffer[0..<count], as: UTF8.self)
    }
}

extension VolumeSink {
    /// Who wrote the output file at `path`, from its extended attributes; nil when it says
    /// nobody (written by something else, or a file system without them).
    public static func owner(ofFileAt path: String) -> OutputOwner? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return OwnerAttributes.get(from: fd)
    }

    /// Whether the file system holding `directory` keeps outputs' owners (user extended
    /// attributes), tried on a temporary file that is removed again.
    public static func recordsOwners(in directory: String) -> Bool {
        let path = directory + "/.darkroom-owner-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer {
            close(fd)
            unlink(path)
        }
        let probe = OutputOwner(job: "probe", batch: "probe")
        OwnerAttributes.set(probe, on: fd)
        return OwnerAttributes.get(from: fd) == probe
    }
}
