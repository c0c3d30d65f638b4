import DarkroomOutput

extension OutputError {
    /// The output error for an S3 request that failed while `doing` something to `location`:
    /// refusals before any request are `output.not-allowed`; credential and clock errors, and
    /// an unreachable, throttling or failing service, are transient (`output.credentials`,
    /// `output.clock-skew`, `output.unavailable`); `AccessDenied` is `output.forbidden`; an
    /// upload that vanished mid-way (`NoSuchUpload`: another attempt aborted it) is `output.io`,
    /// transient; a missing bucket, a redirect (a wrong region or addressing style) and other
    /// 4xx answers need a person (`output.cannot-write`).
    ///
    /// The message is the client's own (never an S3 error body: those may hold the access key id).
    static func s3(_ error: S3Error, _ location: String, doing what: String, duringUpload: Bool = false) -> OutputError {
        let text = "\(location): cannot \(what): \(error.message)"
        switch error.kind {
        case .refused: return OutputError(.notAllowed, "\(location) refused: \(error.message)")
        case .forbidden: return OutputError(.forbidden, text + "; grant the worker's credentials s3:PutObject on the bucket")
        case .credentials: return OutputError(.credentials, text + "; check the endpoint's access key and secret")
        case .clockSkew: return OutputError(.clockSkew, text + "; synchronise this host's clock (NTP)")
        case .throttled, .server, .connection, .timeout, .badResponse: return OutputError(.unavailable, text)
        case .notFound:
            if duringUpload { return OutputError(.io, text + " (the upload was aborted meanwhile; the job is retried)") }
            return OutputError(.cannotWrite, text + "; create the bucket, or correct the destination")
        case .redirect: return OutputError(.cannotWrite, text + "; check the endpoint's region and addressing style")
        case .client, .tooLarge: return OutputError(.cannotWrite, text)
        }
    }
}
