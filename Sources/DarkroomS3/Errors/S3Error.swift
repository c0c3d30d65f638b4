import DarkroomSystem

/// Why a request to an S3-compatible service failed, classified so a source provider and an
/// output sink can each map it onto their own codes (`source.*`, `output.*`).
///
/// **Never** holds the body of an S3 error response: some services put the access key id and the
/// string to sign in it. Only the status, the `<Code>` element and a message of Darkroom's own.
public struct S3Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure, and so whether trying again can help.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// 404: `NoSuchKey`, `NoSuchBucket`, `NoSuchUpload`. Permanent.
        case notFound = "not-found"
        /// 403 `AccessDenied` (and other 403s that are not about credentials or the clock): the
        /// credentials work but may not do this. Permanent.
        case forbidden
        /// `InvalidAccessKeyId`, `SignatureDoesNotMatch`, `ExpiredToken`, `InvalidToken`,
        /// `TokenRefreshRequired`: the credentials are wrong or stale; or there were none to sign
        /// with (the endpoint's credentials file or token file broke, STS failed). Transient, so a
        /// key rotation does not dead-letter a whole batch: the job is retried after the operator
        /// fixes it.
        case credentials
        /// `RequestTimeTooSkewed`: this host's clock is too far from the server's. Transient.
        case clockSkew = "clock-skew"
        /// 503 `SlowDown`, 429, or `ServiceUnavailable`: the service asks for less. Transient.
        case throttled
        /// Another 5xx. Transient.
        case server
        /// Another 4xx (a bad request Darkroom made, `EntityTooLarge`, …). Permanent.
        case client
        /// A 3xx: a signed request never follows a redirect (the signature names the host). Usually
        /// a wrong region or addressing style in the endpoint's configuration. Permanent.
        case redirect
        /// Connection refused or reset, TLS failure, DNS. Transient.
        case connection
        /// Connect, total or low-speed timeout (a server that stalls mid-body). Transient.
        case timeout
        /// The object is larger than the limit. Permanent.
        case tooLarge = "too-large"
        /// The response could not be understood (malformed XML, a missing ETag). Transient.
        case badResponse = "bad-response"
        /// Refused before any request: a bucket not allowed on its endpoint, an unknown endpoint
        /// alias, a key with `.`/`..` segments or control characters. Permanent.
        case refused
    }

    public var kind: Kind
    /// Darkroom's own description: what was asked, what the service answered (status and
    /// `<Code>`), and what to do.
    public var message: String
    /// The HTTP status, when the service answered.
    public var status: Int?
    /// The `<Code>` element of the error response (`AccessDenied`), when there was one.
    public var serviceCode: String?

    public init(_ kind: Kind, _ message: String, status: Int? = nil, serviceCode: String? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
        self.serviceCode = serviceCode
    }

    /// True when trying again later may succeed.
    public var isTransient: Bool {
        switch kind {
        case .credentials, .clockSkew, .throttled, .server, .connection, .timeout, .badResponse: return true
        case .notFound, .forbidden, .client, .redirect, .tooLarge, .refused: return false
        }
    }

    public var description: String { message }
}
