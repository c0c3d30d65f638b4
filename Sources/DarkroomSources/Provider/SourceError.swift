import DarkroomSystem

/// Why a source could not be fetched. Every error is either permanent (retrying cannot help:
/// 404, a refused address, a body over the limit) or transient (a timeout, a 5xx, a reset
/// connection); the job queue retries only transient ones.
public struct SourceError: CodedDarkroomError, SourceNamingError, Equatable {
    /// Stable codes for scripts, job records and tests.
    public enum Code: String, CaseIterable, Sendable {
        /// 404 or 410, or a missing file.
        case notFound = "source.not-found"
        /// 401 or 403.
        case forbidden = "source.forbidden"
        /// Another 4xx (except 408 and 429).
        case httpClientError = "source.http-4xx"
        /// 5xx, or 408.
        case httpServerError = "source.http-5xx"
        /// 429.
        case rateLimited = "source.rate-limited"
        /// Connect, total or low-speed timeout.
        case timeout = "source.timeout"
        /// Refused or reset connection, TLS failure.
        case connection = "source.connection"
        /// The host name could not be resolved. libcurl cannot tell a name that does not exist
        /// from a resolver that failed (in Kubernetes an outage can look like a missing name), so
        /// this is transient once: the worker retries it at least 30 s later, and a second
        /// failure is `noSuchHost`.
        case unresolved = "source.unresolved"
        /// The host name still could not be resolved on a second lookup at least 30 s after the
        /// first: no such host. Permanent.
        case noSuchHost = "source.no-such-host"
        /// The body is larger than the limit (by `Content-Length` or while streaming).
        case tooLarge = "source.too-large"
        /// More redirects than allowed.
        case tooManyRedirects = "source.too-many-redirects"
        /// The policy refused the source: a private or loopback address, a URL outside the
        /// allow-list, a scheme other than http/https, a file outside the allowed roots.
        case refused = "source.refused"
        /// Not a regular file (directory, device, FIFO).
        case notRegularFile = "source.not-regular-file"
        /// The reference cannot be parsed (bad URL, malformed `data:` URI).
        case invalid = "source.invalid"
        /// No provider handles the scheme.
        case unsupportedScheme = "source.unsupported-scheme"
        /// Reading a local file failed for another reason (permissions, I/O error).
        case io = "source.io"
        /// Object storage refused the credentials (`InvalidAccessKeyId`, `SignatureDoesNotMatch`,
        /// `ExpiredToken`): transient, so a key rotation does not fail whole batches for good.
        case credentials = "source.credentials"
        /// Object storage says this host's clock is too far off (`RequestTimeTooSkewed`). Transient.
        case clockSkew = "source.clock-skew"
        /// Object storage answered a signed request with a redirect, which is never followed (the
        /// signature names the host): usually a wrong region or addressing style. Permanent.
        case redirectRefused = "source.redirect-refused"
        /// The object's ETag differs from the one recorded when it was listed. Permanent: the job
        /// names the old object; enqueue it again.
        case changed = "source.changed"
        /// A plugin's provider reported an error (its message is the error's); transient when
        /// the plugin said so.
        case pluginFailed = "plugin.failed"
    }

    public var code: Code
    /// The source as the user wrote it (shortened for `data:` URIs).
    public var source: String
    public var message: String
    /// For `.pluginFailed`: whether the plugin called the failure transient.
    public var pluginSaysTransient: Bool = false

    public init(_ code: Code, source: String, _ message: String) {
        self.code = code
        self.source = source
        self.message = message
    }

    /// A plugin provider's failure, transient when the plugin said so.
    public static func plugin(source: String, _ message: String, transient: Bool) -> SourceError {
        var error = SourceError(.pluginFailed, source: source, message)
        error.pluginSaysTransient = transient
        return error
    }

    /// True when trying again later may succeed.
    public var isTransient: Bool {
        switch code {
        case .httpServerError, .rateLimited, .timeout, .connection, .unresolved, .io, .credentials, .clockSkew: return true
        case .pluginFailed: return pluginSaysTransient
        default: return false
        }
    }
}
