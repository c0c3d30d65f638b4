import DarkroomSystem

/// Why a request's key is refused, or why a key cannot be made: a stable code, a message that
/// says what the key lacks (never its secret), and the HTTP status the job API answers with.
public struct APIKeyError: CodedDarkroomError, Hashable {
    public enum Code: String, CaseIterable, Sendable {
        /// No token, a malformed one, an unknown one, or a revoked key's: all the same to the caller.
        case unauthenticated = "apikey.unauthenticated"
        /// The key lacks the scope the operation needs.
        case scopeMissing = "apikey.scope-missing"
        /// The job's source is not under any of the key's source grants.
        case sourceNotGranted = "apikey.source-not-granted"
        /// The job's output directory is not under any of the key's output grants.
        case outputNotGranted = "apikey.output-not-granted"
        /// The job's priority is above the key's highest.
        case priorityNotGranted = "apikey.priority-not-granted"
        /// The webhook endpoint is not one the key may name.
        case webhookNotGranted = "apikey.webhook-not-granted"
        /// The key's token bucket is empty; `retryAfter` says when the next token comes.
        case rateLimited = "apikey.rate-limited"
        /// A key cannot be made as asked: a bad name, scope, grant or rate (the message says which).
        case invalid = "apikey.invalid"
        /// No key has the id given (to revoke it).
        case unknown = "apikey.unknown"

        /// The job API's status for the code: 401, 403, 429, 422 or 404.
        public var httpStatus: Int {
            switch self {
            case .unauthenticated: 401
            case .scopeMissing, .sourceNotGranted, .outputNotGranted, .priorityNotGranted, .webhookNotGranted: 403
            case .rateLimited: 429
            case .invalid: 422
            case .unknown: 404
            }
        }
    }

    public var code: Code
    public var message: String
    /// For `rateLimited`: how long until the key has a token again (`Retry-After`).
    public var retryAfter: Duration?

    public init(_ code: Code, _ message: String, retryAfter: Duration? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { message }
    /// Only a rate limit passes by itself; the rest need another key or other grants.
    public var isTransient: Bool { code == .rateLimited }
    public var httpStatus: Int { code.httpStatus }

    /// `Retry-After` in whole seconds, rounded up and at least 1, for a rate limit; nil otherwise.
    public var retryAfterSeconds: Int? {
        guard let retryAfter else { return nil }
        let milliseconds = max(retryAfter.wholeMilliseconds, 1)
        return Int((milliseconds + 999) / 1000)
    }

    static let unauthenticated = APIKeyError(
        .unauthenticated, "no valid API key: send `Authorization: Bearer <token>` with a live key's token")
}
