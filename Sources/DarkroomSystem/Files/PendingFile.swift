import Glibc

/// A temporary file being written by an `AtomicFileWriter`, not yet under its name.
///
/// Whatever way the caller leaves (an error thrown midway included), the temporary file is closed
/// and removed unless `replace` gave it its name: the clean-up lives in `deinit`, so no failure
/// path can forget it. A class, not a value, so that clean-up happens exactly once.
public final class PendingFile {
    /// The open descriptor, for callers that fill the file themselves (-1 once sealed).
    public private(set) var descriptor: Int32
    /// The temporary file's name in the writer's directory.
    public let temporaryName: String
    private let writer: AtomicFileWriter
    /// True once `replace` moved the temporary file to its name: nothing left to remove.
    private var moved = false

    init(writer: AtomicFileWriter, descriptor: Int32, temporaryName: String) {
        self.writer = writer
        self.descriptor = descriptor
        self.temporaryName = temporaryName
    }

    deinit {
        if descriptor >= 0 { try? writer.fileSystem.close(descriptor) }
        if !moved { try? writer.fileSystem.remove(writer.path(of: temporaryName), in: writer.directoryDescriptor) }
    }

    /// Appends `bytes` (short writes and `EINTR` retried).
    public func write(_ bytes: UnsafeRawBufferPointer) throws(AtomicFileError) {
        do throws(Errno) { try writer.fileSystem.writeAll(descriptor, bytes) } catch { throw AtomicFileError(.write, error) }
    }

    /// Appends `bytes` (short writes and `EINTR` retried).
    public func write(_ bytes: [UInt8]) throws(AtomicFileError) {
        do throws(Errno) { try writer.fileSystem.writeAll(descriptor, bytes) } catch { throw AtomicFileError(.write, error) }
    }

    /// Finishes the data: `fsync` when the options ask for it, then `close`, whose failure counts
    /// (on NFS, close sends the data to the server: a full volume or quota often shows only here).
    /// Called by `replace` and `link`; idempotent.
    public func seal() throws(AtomicFileError) {
        guard descriptor >= 0 else { return }
        let descriptor = self.descriptor
        self.descriptor = -1
        if writer.options.syncsData {
            do throws(Errno) { try writer.fileSystem.sync(descriptor) } catch {
                try? writer.fileSystem.close(descriptor)
                throw AtomicFileError(.sync, error)
            }
        }
        do throws(Errno) { try writer.fileSystem.close(descriptor) } catch { throw AtomicFileError(.close, error) }
    }

    /// Seals the file and renames it to `name`, replacing whatever is there.
    public func replace(_ name: String) throws(AtomicFileError) {
        try seal()
        do throws(Errno) {
            try writer.fileSystem.rename(writer.path(of: temporaryName), to: writer.path(of: name), in: writer.directoryDescriptor)
        } catch {
            throw AtomicFileError(.replace, error)
        }
        moved = true
        if writer.options.syncsDirectory { writer.syncDirectory() }
    }

    /// Seals the file and hard-links it as `name` only if that name is free, so two writers
    /// racing for one name cannot both get it. Returns nil on success, else the errno: `EEXIST`
    /// when the name is taken; `EPERM`, `ENOTSUP`… where the file system has no hard links. The
    /// temporary name is still removed when this object goes.
    public func link(as name: String) throws(AtomicFileError) -> Errno? {
        try seal()
        do throws(Errno) {
            try writer.fileSystem.link(writer.path(of: temporaryName), as: writer.path(of: name), in: writer.directoryDescriptor)
        } catch {
            return error
        }
        if writer.options.syncsDirectory { writer.syncDirectory() }
        return nil
    }
}
