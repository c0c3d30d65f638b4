import DarkroomQueue

/// A key's grants parsed once, to check every job of one request: `permits(job:)` answers as
/// `APIKey.permits(job:)` does, without parsing each source and output grant again per job.
///
/// A request builds one (`APIKey.jobGrantCheck()`) and drops it with the request, so a key read
/// again from the store (its grants changed, or it was revoked) is parsed afresh: nothing here
/// outlives the key it was made from.
public struct JobGrantCheck: Sendable {
    /// The key whose grants these are.
    public let key: APIKey
    let sourcePrefixes: [GrantPrefix]
    let outputPrefixes: [GrantPrefix]

    /// Parses `key`'s source and output grants.
    public init(_ key: APIKey) {
        self.key = key
        sourcePrefixes = key.grants.sourcePrefixes
        outputPrefixes = key.grants.outputPrefixes
    }

    /// Every check a submitted job must pass: the `submit` scope, its source, output, priority
    /// and, when it names one, its webhook endpoint (`APIKey.permits(job:)`).
    public func permits(job: Job) throws(APIKeyError) {
        try key.permits(scope: .submit)
        try key.permits(source: job.source, prefixes: sourcePrefixes)
        try key.permits(output: job.output, prefixes: outputPrefixes)
        try key.permits(priority: job.priority)
        if let webhook = job.webhook { try key.permits(webhook: webhook) }
    }

    /// Whether the key's source grants cover `source` (`APIKey.permits(source:)`): for the job
    /// API, the literal directory of an `s3://` prefix or glob, checked before it is listed.
    public func permits(source: String) throws(APIKeyError) {
        try key.permits(source: source, prefixes: sourcePrefixes)
    }
}

extension APIKey {
    /// This key's grants parsed once, to check many jobs (`JobGrantCheck`).
    public func jobGrantCheck() -> JobGrantCheck { JobGrantCheck(self) }
}
