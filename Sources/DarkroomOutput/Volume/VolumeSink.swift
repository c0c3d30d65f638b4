import DarkroomSystem

/// The output volume as an `OutputSink`: a destination is a directory, which must be inside one
/// of `roots` (`--allow-output-root`); an output is a file in it, mode 0644 (less the umask).
///
/// Its guarantees are those of `OutputSink`, on a POSIX file system: the bytes go to a temporary
/// file (`.darkroom-tmp-…`) in the destination directory itself, so the last step is atomic; the
/// file gets its name by `linkat` (`.refuse`: only if the name is free) or `renameat`
/// (`.replace`); with `durable`, the data and then the directory are `fsync`ed before `store`
/// returns. The owner goes with the file in extended attributes (`OwnerAttributes`). Everything goes through the opened directory, checked to lie inside a root's real
/// path, so a symbolic link (even one swapped in meanwhile) cannot lead a write outside
/// (`VolumeRoots`, `VolumeWriter`). A crash mid-write leaves at most the temporary file.
///
/// The file-system calls block, so they run on a `BlockingWorkPool`, never on the cooperative
/// threads.
public struct VolumeSink: OutputSink {
    /// The roots, absolute and lexically normalised (relative ones are taken from the working
    /// directory when the sink is made). Empty: every destination is refused.
    public var roots: [String] { volume.roots }
    /// Whether `store` syncs data and directory before it returns (see `init`).
    public let durable: Bool
    let volume: VolumeRoots
    private let pool: BlockingWorkPool
    private let fileSystem: any FileSystemCalls

    /// - Parameters:
    ///   - roots: the directories outputs may be written under (`--allow-output-root`).
    ///   - durable: `fsync` every output and its directory entry before `store` returns. On by
    ///     default: once the queue records `succeeded`, the file must survive a crash of the
    ///     host. `darkroom run`, whose in-process queue dies with it, turns it off.
    ///   - pool: the threads the blocking calls run on; four of its own (started on demand) by
    ///     default.
    ///   - fileSystem: the calls outputs are written through (tests inject faults here).
    public init(
        roots: [String], durable: Bool = true, pool: BlockingWorkPool = BlockingWorkPool(threadCount: 4),
        fileSystem: any FileSystemCalls = GlibcFileSystemCalls()
    ) {
        volume = VolumeRoots(roots)
        self.durable = durable
        self.pool = pool
        self.fileSystem = fileSystem
    }

    public func prepare(_ destination: String) async throws(OutputError) {
        // A directory an earlier job prepared costs no file-system call and no thread hop.
        if volume.preparedDirectory(for: destination) != nil { return }
        let volume = self.volume
        _ = try await pool.run { () throws(OutputError) in try volume.prepare(destination) }
    }

    public func store(
        _ bytes: [UInt8], named name: String, in destination: String, owner: OutputOwner?, onConflict: OutputConflict
    ) async throws(OutputError) -> StoredOutput {
        guard OutputName.isValid(name) else { throw .badName(name) }
        let volume = self.volume
        let durable = self.durable
        let fileSystem = self.fileSystem
        return try await pool.run { () throws(OutputError) in
            var directory = volume.preparedDirectory(for: destination)
            if directory == nil { directory = try volume.prepare(destination) }
            guard let directory else { throw OutputError(.cannotWrite, "\(destination): not prepared") }
            let path = try VolumeWriter.write(
                bytes, named: name, directory: directory, roots: volume, owner: owner, onConflict: onConflict, durable: durable,
                fileSystem: fileSystem)
            // Hashed here, on the pool, while the bytes are at hand: no second read of the file.
            return StoredOutput(location: path, bytes: bytes)
        }
    }
}
