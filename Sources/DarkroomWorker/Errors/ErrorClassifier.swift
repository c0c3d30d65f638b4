import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomQueue
import DarkroomRedis
import DarkroomSources

/// Decides what a failed attempt means for its job: the `JobError` published with it, and
/// whether trying again may help.
///
/// | Error | Code | Retried? |
/// |---|---|---|
/// | `CodecError` (corrupt, truncated, unknown format, too large…) | `image.*` | no |
/// | `ChainError` (bad chain or argument) | `chain.*` | no |
/// | `RenderError`, `BitmapError` (limits) | `output.too-large`, `image.too-large` | no |
/// | `SourceError` 404/410, 401/403, other 4xx, refused, too large, invalid | `source.*` | no |
/// | `SourceError` 5xx, 408, 429, timeout, connection, file I/O | `source.*` | yes |
/// | `CacheError` disk full, NFS hiccups (`isTransient`) | `cache.*` | yes |
/// | `CacheError` permission, corrupt, layout | `cache.*` | no |
/// | `WorkerError` output refused / unsupported format / cannot write | `output.*` | per error (disk full: yes) |
/// | `FileIOError` | `file.cannot-write` | yes when the disk is full |
/// | `RedisError` connection, timeout, LOADING/BUSY… | `queue.redis` | yes (others no) |
/// | `JobQueueError` unavailable | `queue.unavailable` | yes (others no) |
/// | anything else | `internal` | yes — it may be the machine, not the job; `maxAttempts` bounds it |
public enum ErrorClassifier {
    /// A classified failure.
    public struct Classification: Sendable, Hashable {
        public var error: JobError
        /// True: retry with backoff (dead-lettered after `maxAttempts`); false: fail at once.
        public var isTransient: Bool

        public init(error: JobError, isTransient: Bool) {
            self.error = error
            self.isTransient = isTransient
        }
    }

    public static func classify(_ error: any Error) -> Classification {
        switch error {
        case let error as CodecError:
            return permanent(error.code.rawValue, "\(error)")
        case let error as ChainError:
            return permanent(error.code.rawValue, "bad chain: \(error)")
        case let error as RenderError:
            return permanent(error.code, "\(error)")
        case let error as BitmapError:
            return permanent("image.too-large", "\(error)")
        case let error as SourceError:
            return Classification(error: JobError(code: error.code.rawValue, message: "\(error)"), isTransient: error.isTransient)
        case let error as CacheError:
            return Classification(error: JobError(code: error.code, message: error.message), isTransient: error.isTransient)
        case let error as WorkerError:
            return Classification(error: JobError(code: error.code, message: error.message), isTransient: error.isTransient)
        case let error as FileIOError:
            let full = "\(error)".contains("No space left") || "\(error)".contains("quota")
            return Classification(error: JobError(code: error.code, message: "\(error)"), isTransient: full)
        case let error as RedisError:
            return Classification(error: JobError(code: "queue.redis", message: "\(error)"), isTransient: error.isTransient)
        case let error as JobQueueError:
            return Classification(error: JobError(code: error.code.rawValue, message: error.message),
                                  isTransient: error.code == .unavailable)
        case is CancellationError:
            return Classification(error: JobError(code: "worker.cancelled", message: "the worker stopped before the job finished"),
                                  isTransient: true)
        default:
            return Classification(error: JobError(code: "internal", message: "unexpected error: \(error)"), isTransient: true)
        }
    }

    private static func permanent(_ code: String, _ message: String) -> Classification {
        Classification(error: JobError(code: code, message: message), isTransient: false)
    }
}
