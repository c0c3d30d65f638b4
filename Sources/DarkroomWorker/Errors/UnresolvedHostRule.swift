import DarkroomQueue
import DarkroomSources

/// What a host that does not resolve means for its job. libcurl reports a name that does not
/// exist and a resolver that failed alike, and in Kubernetes a resolver outage can look like a
/// missing name; so the first `source.unresolved` is transient, retried no sooner than
/// `minimumDelay` after it, and a second one in a row — a second lookup at least that long after
/// the first — fails the job for good as `source.no-such-host`.
enum UnresolvedHostRule {
    /// The error of this attempt: `classified` as it is, or the permanent `source.no-such-host`
    /// when the attempt before also failed to resolve.
    static func apply(_ classified: ErrorClassifier.Classification, job: Job) -> ErrorClassifier.Classification {
        let unresolved = SourceError.Code.unresolved.rawValue
        guard classified.error.code == unresolved, job.lastError?.code == unresolved else { return classified }
        let error = JobError(
            code: SourceError.Code.noSuchHost.rawValue,
            message: classified.error.message + "; it was not resolved by the attempt before either, at least 30 s earlier: no such host")
        return ErrorClassifier.Classification(error: error, isTransient: false)
    }

    /// The delay before retrying: the backoff's, and for an unresolved host at least `minimum`.
    static func delay(_ backoff: Duration, for classified: ErrorClassifier.Classification, minimum: Duration) -> Duration {
        classified.error.code == SourceError.Code.unresolved.rawValue ? max(backoff, minimum) : backoff
    }
}
