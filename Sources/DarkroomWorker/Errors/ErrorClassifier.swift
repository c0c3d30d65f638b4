import DarkroomQueue
import DarkroomSystem

/// Decides what a failed attempt means for its job: the `JobError` published with it, and
/// whether trying again may help. Every Darkroom error says both itself (`DarkroomError`), so
/// this reads the one lookup (`ErrorSummary`), not a list of types that a new error could be
/// missing from: permanent → `failed` at once; transient (a `CancellationError`, an error that is
/// not a `DarkroomError`, and every error whose `isTransient` is true) → retried with backoff,
/// bounded by `maxAttempts`. Every code and its retry rule is in `docs/limits-and-errors.md`.
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
