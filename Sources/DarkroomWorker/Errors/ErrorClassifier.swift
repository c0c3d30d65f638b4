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

    /// The message is redacted like the job's `source` (`SourceRedaction`): an error that names
    /// its source (a 403 on an expired signed URL) would otherwise put the credentials the event
    /// leaves out into every record that carries the error.
    public static func classify(_ error: any Error) -> Classification {
        let summary = ErrorSummary(error)
        var message = summary.message
        // The source as typed first: it may hold spaces, which the URL pass below stops at.
        if let named = error as? any SourceNamingError, !named.source.isEmpty {
            message = message.replacing(named.source, with: SourceRedaction.redact(named.source))
        }
        // Then every URL the message quotes: the normalised source, a redirect's location.
        message = SourceRedaction.redactURLs(in: message)
        return Classification(error: JobError(code: summary.code, message: message), isTransient: summary.isTransient)
    }
}
