import DarkroomSystem
import Glibc

/// Why a cache operation failed: a stable `code` for logs and job events, a message that names
/// the file and says what to do, and whether retrying later may help.
public struct CacheError: CodedDarkroomError, Equatable {
    /// Stable machine-readable codes.
    public enum Code: String, CaseIterable, Sendable {
        /// The volume or the user's quota is full.
        case diskFull = "cache.disk-full"
        /// An entry exists but cannot be what was stored.
        case corrupt = "cache.corrupt"
        /// The directory is not a cache of a layout this build understands.
        case layout = "cache.layout"
        /// A caller passed a value the cache cannot accept.
        case invalidArgument = "cache.invalid-argument"
        /// The cache directory's owner or mode forbids the operation.
        case permission = "cache.permission"
        /// Another failed system call.
        case io = "cache.io"
    }

    public let code: Code
    /// One line for a person: what failed, where, and what to do.
    public let message: String
    /// True when the same operation may succeed later (a full disk, an NFS hiccup), so a job
    /// queue should retry rather than fail the job.
    public let isTransient: Bool
    /// The `errno` behind the failure, when there was one.
    public let systemError: Int32?

    public init(code: Code, message: String, isTransient: Bool, systemError: Int32? = nil) {
        self.code = code
        self.message = message
        self.isTransient = isTransient
        self.systemError = systemError
    }

    public var description: String { message }

    /// The volume (or the user's quota) is full. Transient: an eviction or an operator may free
    /// space. Nothing damaged is left behind when this is thrown.
    public static func diskFull(path: String, systemError: Int32) -> CacheError {
        CacheError(
            code: .diskFull,
            message: "\(path): no space left on the cache volume (\(errnoText(systemError))); free space or lower the cache limits",
            isTransient: true, systemError: systemError)
    }

    /// An entry exists but cannot be what was stored (not a regular file, or shorter than its size).
    public static func corrupt(path: String, reason: String) -> CacheError {
        CacheError(
            code: .corrupt, message: "\(path): damaged cache entry (\(reason)); it can be deleted safely",
            isTransient: false)
    }

    /// The directory holds something that is not a cache of a layout this build understands.
    public static func layout(path: String, reason: String) -> CacheError {
        CacheError(code: .layout, message: "\(path): \(reason)", isTransient: false)
    }

    /// A caller passed a value the cache cannot accept.
    public static func invalidArgument(_ reason: String) -> CacheError {
        CacheError(code: .invalidArgument, message: reason, isTransient: false)
    }

    /// Maps a failed system call's `errno` on `path` to the right error: a full disk or quota
    /// becomes `cache.disk-full`, permission problems `cache.permission`, anything else `cache.io`
    /// (transient when it is the kind of error a network file system produces under load).
    public static func system(_ operation: String, path: String, errno code: Int32) -> CacheError {
        switch code {
        case ENOSPC, EDQUOT:
            return .diskFull(path: path, systemError: code)
        case EACCES, EPERM, EROFS:
            return CacheError(
                code: .permission,
                message: "\(path): cannot \(operation) (\(errnoText(code))); check the cache directory's owner and mode",
                isTransient: false, systemError: code)
        default:
            return CacheError(
                code: .io, message: "\(path): cannot \(operation) (\(errnoText(code)))",
                isTransient: Errno(code).isTransientIO, systemError: code)
        }
    }

    static func errnoText(_ code: Int32) -> String { Errno(code).message }
}

extension CacheError {
    public var errorMessage: String { message }
}
