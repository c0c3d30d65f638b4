import DarkroomCore
import DarkroomSystem
import Glibc

/// Reads local files: bare paths (`photos/a.jpg`, `/srv/img/a.jpg`) and `file:` URLs
/// (`file:///srv/img/a%20b.jpg`, percent-decoded).
///
/// Policy (`SourcePolicy.fileRoots`):
/// - `nil` (paths a person typed into `darkroom process`): any file this process can read.
/// - `[]` (the default for queued jobs): every file is refused; `--allow-file-root DIR` allows one.
/// - a list of directories: the path, resolved with symbolic links followed and `..` applied,
///   must lie inside one of them (see `FileConfinement`), and it is opened without following any
///   link (see `ConfinedFileOpener`).
///
/// Only regular files are read: directories, devices, FIFOs and sockets are `.notRegularFile`,
/// found without opening them and so without ever blocking. A file larger than
/// `policy.maxBytes` is `.tooLarge` before a byte is read. A missing file is `.notFound`; a
/// permission error is `.forbidden` (permanent, like HTTP 403); other I/O errors are `.io`
/// (transient). A file that changes while it is read is `.io` too, so a retry reads it whole.
///
/// The cache key is `file://` + the resolved path + `#` + size + `-` + modification time in
/// nanoseconds, so an edited file is a new original.
public struct FileProvider: DataProviding {
    public var schemes: Set<String> { ["file"] }

    private let pool: BlockingWorkPool

    /// - Parameter pool: the threads file system calls run on (they block, and on a network
    ///   volume they can block for a long time).
    public init(pool: BlockingWorkPool) {
        self.pool = pool
    }

    /// Resolves the path, applies the policy and `stat`s the file (no read), so the key of an
    /// edited file differs from the old one. Runs on the calling thread: a few system calls.
    public func cacheKey(for reference: SourceReference, policy: SourcePolicy) throws(SourceError) -> String? {
        let path = try FilePath.named(by: reference)
        let file = try FileConfinement.confine(path, policy: policy, source: reference.raw)
        let info = try ConfinedFileOpener.status(of: file, source: reference.raw)
        return Self.cacheKey(file.resolved, info)
    }

    public func fetch(_ reference: SourceReference, policy: SourcePolicy) async throws(SourceError) -> FetchedSource {
        do {
            return try await pool.run { try Self.readFile(reference, policy: policy) }
        } catch let error as SourceError {
            throw error
        } catch {
            throw SourceError(.io, source: reference.raw, "reading failed: \(error)")
        }
    }

    /// The whole read, on a pool thread.
    static func readFile(_ reference: SourceReference, policy: SourcePolicy) throws(SourceError) -> FetchedSource {
        let source = reference.raw
        let path = try FilePath.named(by: reference)
        let file = try FileConfinement.confine(path, policy: policy, source: source)
        let open = try ConfinedFileOpener.openFile(file, source: source)
        defer { close(open.descriptor) }
        let size = Int(open.info.st_size)
        guard size <= policy.maxBytes else {
            throw SourceError(
                .tooLarge, source: source,
                "the file is \(size) bytes, over the source size limit of \(policy.maxBytes) bytes (raise it with --max-source-mb)")
        }
        let bytes = try readAll(open.descriptor, size: size, path: file.resolved, source: source)

        // A writer may have changed the file while it was read: the bytes would then match
        // neither version, and the cache key (size and time) would name the wrong one.
        var after = stat()
        guard fstat(open.descriptor, &after) == 0 else {
            throw FileErrors.error(Errno(errno), path: file.resolved, source: source, operation: "reading the status of")
        }
        guard bytes.count == size, after.st_size == open.info.st_size,
            modificationNanoseconds(after) == modificationNanoseconds(open.info)
        else {
            throw SourceError(.io, source: source, "\(file.resolved.display) changed while it was read; try again")
        }
        return FetchedSource(
            bytes: bytes, cacheKey: cacheKey(file.resolved, open.info),
            finalLocation: file.resolved.fileURL, contentType: nil)
    }

    /// Reads up to `size` bytes (stopping early at end of file).
    private static func readAll(_ descriptor: Int32, size: Int, path: FilePath, source: String) throws(SourceError) -> [UInt8] {
        var failure: Errno?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var total = 0
            while total < size, let base = buffer.baseAddress {
                let got = SystemCall.retryingInterrupts { read(descriptor, base + total, min(size - total, 1 << 30)) }
                if got > 0 {
                    total += got
                } else if got == 0 {
                    break
                } else {
                    failure = .current
                    break
                }
            }
            initialized = total
        }
        if let failure { throw FileErrors.error(failure, path: path, source: source, operation: "reading") }
        return bytes
    }

    static func cacheKey(_ resolved: FilePath, _ info: stat) -> String {
        "\(resolved.fileURL)#\(info.st_size)-\(modificationNanoseconds(info))"
    }

    /// The modification time in nanoseconds since the epoch, as a string (an Int64 of nanoseconds
    /// overflows in 2262; the string form never does).
    static func modificationNanoseconds(_ info: stat) -> String {
        let time = info.st_mtim
        let (product, overflow) = Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
        if !overflow {
            let (sum, overflow2) = product.addingReportingOverflow(Int64(time.tv_nsec))
            if !overflow2 { return String(sum) }
        }
        let nanoseconds = String(time.tv_nsec)
        return "\(time.tv_sec)\(String(repeating: "0", count: max(0, 9 - nanoseconds.count)))\(nanoseconds)"
    }
}
