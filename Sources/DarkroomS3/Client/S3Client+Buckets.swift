extension S3Client {
    /// Whether requests are signed rather than anonymous: the endpoint has credentials, fixed or
    /// resolved per request (a credentials file, web identity).
    public var signsRequests: Bool { endpoint.credentialsSource != .anonymous }

    /// `HeadBucket` (`HEAD /bucket`): returns when the bucket exists and these credentials may
    /// list it (the permission AWS checks is `s3:ListBucket`); throws the classified failure
    /// otherwise (404 `notFound`, 403 `forbidden`, a timeout, …).
    ///
    /// A `HEAD` answer has no body, so a 403 here carries no `<Code>`: it cannot tell a wrong
    /// secret from a missing permission. `probeMissingObject(bucket:)` can.
    public func headBucket(_ bucket: String) async throws(S3Error) {
        _ = try await send(Call(operation: "HeadBucket", method: "HEAD", bucket: bucket, key: nil, maxBytes: 0))
    }

    /// What a `GetObject` of a key that cannot exist says about the bucket and the credentials,
    /// for credentials that may not list the bucket (a worker that may only read and write
    /// objects gets 403 from `HeadBucket`).
    public enum MissingObjectProbe: Sendable, Equatable {
        /// 404 `NoSuchKey` (or, against all odds, an object): the bucket exists and the request's
        /// signature was accepted.
        case noSuchKey
        /// 403 `AccessDenied`: the signature was accepted (S3 authenticates a request before it
        /// authorises it), but these credentials may not read a missing key (AWS answers so
        /// without `s3:ListBucket`). The bucket's existence is not proven.
        case accessDenied
    }

    /// A `GetObject` of a random key under `.darkroom-health/`, which no one writes: see
    /// `MissingObjectProbe`. Throws for every other answer — 404 `NoSuchBucket` as `notFound`,
    /// a refused signature as `credentials`, a timeout — so the caller reports it.
    public func probeMissingObject(bucket: String) async throws(S3Error) -> MissingObjectProbe {
        let key = ".darkroom-health/missing-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let call = Call(operation: "GetObject", method: "GET", bucket: bucket, key: key, maxBytes: 1 << 16)
        do {
            _ = try await send(call)
            return .noSuchKey
        } catch {
            switch (error.kind, error.serviceCode) {
            case (.notFound, "NoSuchBucket"): throw error
            case (.notFound, _): return .noSuchKey
            case (.forbidden, "AccessDenied"): return .accessDenied
            default: throw error
            }
        }
    }
}
