import Glibc

/// A C `errno` value: what a failed system call reports, kept typed so callers can decide on the
/// number (a full disk, a busy network volume) rather than on the text.
public struct Errno: Error, Hashable, Sendable {
    /// The raw value, e.g. `ENOSPC`.
    public let code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The calling thread's `errno` now. Read it straight after the failed call: any later call
    /// (even `close` on a cleanup path) may overwrite it.
    public static var current: Errno { Errno(errno) }

    /// `strerror`'s text, e.g. "No space left on device".
    public var message: String { String(cString: strerror(code)) }

    /// The volume or the user's quota is full: freeing space (an eviction, an operator) fixes it.
    public var isOutOfSpace: Bool { code == ENOSPC || code == EDQUOT }

    /// Errors a busy machine or network file system produces that may go away on a retry: an
    /// NFS hiccup (`EIO`, `ESTALE`, `ETIMEDOUT`), an interrupted or would-block call, and running
    /// out of descriptors or memory for a moment. Permission and path errors are not among them.
    public var isTransientIO: Bool {
        switch code {
        case EIO, ESTALE, ETIMEDOUT, EINTR, EAGAIN, ENFILE, EMFILE, ENOMEM, EBUSY: return true
        default: return false
        }
    }
}
