import DarkroomSystem
import HTTPTypes

/// A refusal or failure of the HTTP job API, with its stable code and the HTTP status it answers
/// with (docs/http-api.md has the table). Sent as one record of a JSON error body.
public struct APIError: CodedDarkroomError, Hashable {
    public enum Code: String, CaseIterable, Sendable {
        /// `--listen` is not `HOST:PORT` with a port in 0…65535.
        case invalidAddress = "api.invalid-address"
        /// A non-loopback listener without `--behind-tls-proxy`.
        case tlsRequired = "api.tls-required"
        /// The server could not listen on the address.
        case listenFailed = "api.listen-failed"
        /// `--output-root` or `--cache-root` is not an absolute path to a directory.
        case invalidRoot = "api.invalid-root"
        /// A `--cors-origin` that is not `http(s)://host[:port]`.
        case invalidOrigin = "api.invalid-origin"
        /// `--header-timeout` or `--body-timeout` is not in (0, 3600] seconds.
        case invalidTimeout = "api.invalid-timeout"
        /// The request's headers or body did not arrive within `APIConfiguration.headTimeout` or
        /// `bodyTimeout` (408; the connection closes).
        case requestTimeout = "api.request-timeout"
        /// The body is not JSON, or not the JSON the endpoint takes (400).
        case invalidJSON = "api.invalid-json"
        /// A field of the body breaks a rule: an unknown key, a wrong type, a value out of range (422).
        case invalidField = "api.invalid-field"
        /// More jobs in one request than `APIConfiguration.maxJobsPerRequest`, or prefixes and
        /// globs that list more than `APIConfiguration.maxListedJobs` (422).
        case tooManyJobs = "api.too-many-jobs"
        /// Beside another error of a request whose prefixes or globs were being listed: how many
        /// jobs the pages before the failure enqueued, and into which batch (never alone).
        case partlyEnqueued = "api.partly-enqueued"
        /// The body is larger than `APIConfiguration.maxBodyBytes` (413).
        case bodyTooLarge = "api.body-too-large"
        /// No such job, batch or endpoint (404).
        case notFound = "api.not-found"
        /// A method the path does not serve (HTTP 405, with `Allow`).
        case methodNotAllowed = "api.method-not-allowed"
        /// An `Idempotency-Key` that is empty, too long or not printable ASCII (400).
        case invalidIdempotencyKey = "api.invalid-idempotency-key"
        /// An `Idempotency-Key` used before with another request body (422).
        case idempotencyKeyReused = "api.idempotency-key-reused"
        /// An `Idempotency-Key` whose first request is still being answered (409).
        case idempotencyInFlight = "api.idempotency-in-flight"
        /// The job has no output file to serve: not succeeded, or its result lives in no file (404).
        case noOutput = "api.no-output"
        /// The output's path is outside the configured roots, or a link on the way (404).
        case outputRefused = "api.output-refused"
        /// The job succeeded but its output file is gone: evicted from the cache, or deleted (410).
        case outputGone = "api.output-gone"
        /// A CORS preflight from an origin `--cors-origin` does not list (403).
        case originNotAllowed = "api.origin-not-allowed"
        /// A submit names a batch another key's work is in, or one the CLI made; only `admin`
        /// keys add to those (409).
        case batchNotOwned = "api.batch-not-owned"
        /// Redis could not be reached (503, with `Retry-After`).
        case unavailable = "api.unavailable"
        /// Anything else: a bug or the machine (500).
        case `internal` = "api.internal"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
    public var isTransient: Bool { code == .unavailable || code == .idempotencyInFlight || code == .requestTimeout }
    public var systemError: Int32? { nil }

    /// The HTTP status the code answers with.
    public var status: HTTPResponse.Status {
        switch code {
        case .invalidJSON, .invalidIdempotencyKey: .badRequest
        case .invalidField, .tooManyJobs, .idempotencyKeyReused, .partlyEnqueued: .unprocessableContent
        case .bodyTooLarge: .contentTooLarge
        case .notFound, .noOutput, .outputRefused: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .idempotencyInFlight, .batchNotOwned: .conflict
        case .originNotAllowed: .forbidden
        case .outputGone: .gone
        case .requestTimeout: .requestTimeout
        case .unavailable: .serviceUnavailable
        case .invalidAddress, .tlsRequired, .listenFailed, .invalidRoot, .invalidOrigin, .invalidTimeout, .internal: .internalServerError
        }
    }
}
