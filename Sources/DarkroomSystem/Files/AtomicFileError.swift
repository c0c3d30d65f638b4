/// Why an atomic write failed: the step, and the errno. Each caller turns it into its own error
/// (`file.cannot-write`, `cache.*`, `output.*`) with its own wording.
public struct AtomicFileError: Error, Hashable, Sendable {
    /// The steps of an atomic write, in order.
    public enum Stage: Sendable, Hashable {
        /// Creating the missing directory (`Options.createsMissingDirectory`).
        case createDirectory
        /// Creating the temporary file (or setting its mode).
        case createTemporary
        case write
        /// `fsync` of the data.
        case sync
        /// `close`, which reports a deferred write error on network file systems.
        case close
        /// The rename to the final name.
        case replace
        /// The hard link to the final name (a caller's own policy step after `PendingFile.link`).
        case link
    }

    public var stage: Stage
    public var systemError: Errno

    public init(_ stage: Stage, _ systemError: Errno) {
        self.stage = stage
        self.systemError = systemError
    }
}
