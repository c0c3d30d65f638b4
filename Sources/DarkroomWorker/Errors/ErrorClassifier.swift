import DarkroomQueue
import DarkroomSystem

/// Decides what a failed attempt means for its job: the `JobError` published with it, and
/// whether trying again may help. Every Darkroom error says both itself (`DarkroomError`), so
/// this is a lookup (`ErrorSummary`), not a list of types that a new error could be missing from.
///
/// | Error | Code | Retried? |
/// |---|---|---|
/// | `CodecError` (corrupt, truncated, unknown format, too large…) | `image.*` | no |
/// | `ChainError` (bad chain or argument; message prefixed `bad chain: `) | `chain.*` | no |
/// | `RenderError`, `BitmapError` (limits) | `output.too-large`, `image.too-large` | no |
/// | `SourceError` 404/410, 401/403, other 4xx, refused, too large, invalid | `source.*` | no |
/// | `SourceError` 5xx, 408, 429, timeout, connection, file I/O | `source.*` | yes |
/// | `CacheError` disk full, NFS hiccups (`isTransient`) | `cache.*` | yes |
/// | `CacheError` permission, corrupt, layout | `cache.*` | no |
/// | `WorkerError` unsupported format | `output.unsupported-format` | no |
/// | `OutputError` (the output sink) refused, taken, cannot write / disk full, I/O | `output.*` | no / yes |
/// | `FileIOError` | `file.cannot-write` | yes when its errno is `ENOSPC` or `EDQUOT` |
/// | `RedisError` connection, timeout, LOADING/BUSY… | `queue.redis` | yes (others no) |
/// | `JobQueueError` unavailable | `queue.unavailable` | yes (others no) |
/// | `CancellationError` | `worker.cancelled` | yes |
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
        let summary = ErrorSummary(error)
        return Classification(error: JobError(code: summary.code, message: summary.message), isTransient: summary.isTransient)
    }
}
