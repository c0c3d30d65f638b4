import DarkroomSystem
import Glibc

/// Writes one output into a directory on the volume, atomically, inside the allowed roots, and
/// without overwriting a different file unless asked to (`VolumeSink`'s blocking half).
///
/// The directory is opened once and everything after happens relative to that descriptor
/// (`openat`, `linkat`, `renameat`, through DarkroomSystem's `AtomicFileWriter`), after checking
/// that what was opened lies inside an allowed root — so no symlink, even one swapped in
/// meanwhile, can redirect the write. The bytes go to a temporary file, which then gets its name:
/// with `.refuse`, by a hard link, which fails when the name exists, so two writers racing for
/// one name cannot both get it (if the name holds the same bytes, that file is the output; other
/// bytes or something that is not a regular file: `output.taken`); with `.replace`, by a rename
/// over the name. A reader never sees half a file. File systems without hard links fall back to
/// check-then-rename.
enum VolumeWriter {
    /// Writes `bytes` as `name` in `directory` and returns the file's path.
    static func write(
        _ bytes: [UInt8], named name: String, directory: String, roots: VolumeRoots,
        owner: OutputOwner? = nil, onConflict: OutputConflict, durable: Bool,
        fileSystem: any FileSystemCalls = GlibcFileSystemCalls()
    ) throws(OutputError) -> String {
        var dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir < 0, errno == ENOENT {
            // Prepared by an earlier job, then removed (a clean-up between batches): create it again
            // rather than failing every later job into it for good.
            roots.forget(directory)
            _ = try roots.prepare(directory)
            dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard dir >= 0 else { throw .failure(errno, path: directory, doing: "open the directory") }
        defer { close(dir) }
        guard let opened = realPath(of: dir, fallback: directory), roots.isInsideRealRoot(opened) else {
            throw .notAllowed(directory, roots: roots.roots)
        }
        let path = directory == "/" ? "/" + name : directory + "/" + name

        // The temporary file is created, linked and renamed through `dir`, never by path. Synced
        // before it gets its name when `durable`: the job is acknowledged as succeeded right after,
        // so a host crash must not leave an empty or partial file under the output's name; the
        // directory is synced too, so a crash cannot undo the new name.
        let writer = AtomicFileWriter(
            directoryDescriptor: dir, displayPath: directory,
            options: .init(mode: 0o644, syncsData: durable, syncsDirectory: durable), fileSystem: fileSystem)
        let file: PendingFile
        do throws(AtomicFileError) {
            file = try writer.begin()
            try file.write(bytes)
            if let owner { OwnerAttributes.set(owner, on: file.descriptor) }
            if onConflict == .replace {
                try file.replace(name)
                return path
            }
        } catch {
            throw .failure(error.systemError.code, path: onConflict == .replace ? path : directory, doing: "write")
        }
        let linkError: Errno?
        do throws(AtomicFileError) { linkError = try file.link(as: name) } catch {
            throw .failure(error.systemError.code, path: directory, doing: "write")
        }
        guard let linkError else { return path }
        switch linkError.code {
        case EEXIST:
            break
        case EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS:
            // No hard links here (some FUSE and SMB mounts): take the name if it is free.
            var info = stat()
            if fstatat(dir, name, &info, AT_SYMLINK_NOFOLLOW) != 0 {
                do throws(AtomicFileError) { try file.replace(name) } catch {
                    throw .failure(error.systemError.code, path: path, doing: "write")
                }
                return path
            }
        default:
            throw .failure(linkError.code, path: path, doing: "write")
        }
        switch existing(dir, name, bytes) {
        case .same: return path
        case .different(let owner): throw .taken(path, owner: owner)
        }
    }

    /// The real path of an open directory (Linux: `/proc/self/fd/N`); `realpath` elsewhere.
    static func realPath(of descriptor: Int32, fallback: String?) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard count > 0 else { return fallback.flatMap(VolumeRoots.realPath) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What is under a taken name: exactly `bytes` (this output already), or something else —
    /// with who wrote it, when it is a regular file that says.
    enum Existing: Equatable {
        case same
        case different(owner: OutputOwner?)
    }

    /// Whether the regular file `name` in `dir` holds exactly `bytes`, and if not, its owner.
    private static func existing(_ dir: Int32, _ name: String, _ bytes: [UInt8]) -> Existing {
        // O_NONBLOCK: a FIFO planted under the name must not block this thread (and the job) forever.
        let fd = openat(dir, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return .different(owner: nil) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .different(owner: nil) }
        guard Int(info.st_size) == bytes.count else { return .different(owner: OwnerAttributes.get(from: fd)) }
        var existing = [UInt8](repeating: 0, count: bytes.count)
        guard case .success(let count) = existing.withUnsafeMutableBytes({ SystemCall.readFully(fd, into: $0) }),
            count == bytes.count, existing == bytes
        else { return .different(owner: OwnerAttributes.get(from: fd)) }
        return .same
    }
}
