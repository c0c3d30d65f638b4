import DarkroomSystem
import Glibc

/// Reading and atomically writing one entry file.
enum EntryIO {
    /// Larger entries are refused on store and reported as damaged on read: no image Darkroom
    /// fetches or makes comes near it, and it keeps a stray huge file from being read into memory.
    static let maximumEntryBytes = 1 << 32

    enum ReadOutcome {
        case hit([UInt8])
        case miss
        /// Not used within the time to live: a miss. Left for the sweep (unlinking it here
        /// could delete a fresh entry another process renamed into place a moment ago).
        case expired
        /// An empty file: what a power cut can leave of a non-durable write. A miss; the next
        /// store replaces it.
        case empty
    }

    /// Reads the entry at `path`. The open descriptor pins the inode, so an entry evicted or
    /// replaced while it is read still reads whole. A hit whose modification time is older than
    /// `refreshAfter` nanoseconds gets it set to now: recency for LRU, without relying on atime.
    static func read(_ path: String, now: Int64, timeToLive: Int64?, refreshAfter: Int64) throws(CacheError) -> ReadOutcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            let code = errno
            // ESTALE: on NFS, another host replaced or evicted the entry as we opened it.
            if code == ENOENT || code == ENOTDIR || code == ESTALE { return .miss }
            if code == ELOOP { throw .corrupt(path: path, reason: "a symbolic link where an entry belongs") }
            throw .system("read", path: path, errno: code)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            if errno == ESTALE { return .miss }
            throw .system("stat", path: path, errno: errno)
        }
        guard POSIX.isRegularFile(info) else { throw .corrupt(path: path, reason: "not a regular file") }
        let size = Int(info.st_size)
        guard size > 0 else { return .empty }
        guard size <= maximumEntryBytes else { throw .corrupt(path: path, reason: "\(size) bytes, over the 4 GiB entry limit") }
        let modified = POSIX.modificationTime(info)
        let age = now &- modified
        if let timeToLive, age > timeToLive { return .expired }
        let bytes: [UInt8]
        switch POSIX.readExactly(fd, count: size) {
        case .success(let read): bytes = read
        case .failure(let failure) where failure.code == 0:
            throw .corrupt(path: path, reason: "shorter than its recorded size")
        case .failure(let failure) where failure.code == ESTALE:
            return .miss  // evicted by another NFS client mid-read: a miss, not an error
        case .failure(let failure):
            throw .system("read", path: path, errno: failure.code)
        }
        if age >= refreshAfter {
            // Both times UTIME_NOW: allowed to any writer, not only the owner. A failure (a
            // read-only mount, another user's file) only costs recency, so it is ignored.
            _ = futimens(fd, nil)
        }
        return .hit(bytes)
    }

    /// Writes `bytes` to a new temporary file in `directory` (the entry's own directory, so the
    /// rename is atomic on NFS and CephFS too), then renames it over `path`, through the shared
    /// `AtomicFileWriter`: a reader sees the old entry or the new one, never part of one. On any
    /// failure the temporary file is removed. `durable` syncs the data and the directory.
    static func write(
        _ bytes: [UInt8], to path: String, directory: String, durable: Bool, fileSystem: any FileSystemCalls
    ) throws(CacheError) {
        guard !bytes.isEmpty else { throw .invalidArgument("an empty value cannot be cached (empty entries read as misses)") }
        guard bytes.count <= maximumEntryBytes else { throw .invalidArgument("\(bytes.count) bytes is over the 4 GiB entry limit") }
        let options = AtomicFileWriter.Options(
            temporaryPrefix: CacheLayout.temporaryPrefix, syncsData: durable,
            syncsDirectory: durable, createsMissingDirectory: true)
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        do throws(AtomicFileError) {
            try AtomicFileWriter(directory: directory, options: options, fileSystem: fileSystem).write(bytes, replacing: name)
        } catch {
            switch error.stage {
            case .createDirectory: throw .system("create", path: directory, errno: error.systemError.code)
            case .createTemporary: throw .system("create a temporary file in", path: directory, errno: error.systemError.code)
            // On NFS, close flushes the data to the server: a full volume or quota often shows there.
            case .write, .close: throw .system("write", path: path, errno: error.systemError.code)
            case .sync: throw .system("fsync", path: path, errno: error.systemError.code)
            case .replace, .link: throw .system("rename into place", path: path, errno: error.systemError.code)
            }
        }
    }
}
