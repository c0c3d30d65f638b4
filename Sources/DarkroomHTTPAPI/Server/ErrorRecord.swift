import DarkroomAPIKeys
import DarkroomClient
import DarkroomQueue
import DarkroomSystem
import DarkroomWebhooks
import Foundation
import Hummingbird

/// One error in a JSON error body: `{"errors": [ErrorRecord…]}`. `code` is stable (the CLI's for
/// a refused job: `chain.*`, `name.*`, `enqueue.*`; `apikey.*` for a key's refusal; `api.*` for
/// the API's own); `location` says
/// where (`jobs:3` is the third job of the request); `column` is the 1-based column of a bad chain.
public struct ErrorRecord: Codable, Sendable, Equatable {
    public var code: String
    public var message: String
    public var location: String?
    public var column: Int?

    public init(code: String, message: String, location: String? = nil, column: Int? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.column = column
    }

    /// A refused job's problem, as the CLI would report it.
    public init(_ problem: EnqueueProblem) {
        self.init(code: problem.code, message: problem.message, location: problem.location, column: problem.column)
    }

    /// The API's own error.
    public init(_ error: APIError, location: String? = nil) {
        self.init(code: error.code.rawValue, message: error.message, location: location)
    }
}

/// The JSON answers every endpoint gives (the coordinator's HTTP server gives its refusals in the
/// same shape through `errors(_:_:)`).
public enum APIResponse {
    private struct ErrorBody: Encodable { var errors: [ErrorRecord] }

    /// `value` as JSON with `status`.
    static func json(_ status: HTTPResponse.Status, _ value: some Encodable) throws -> Response {
        let bytes = try RecordJSON.encoder().encode(value)
        return json(status, bytes: Array(bytes))
    }

    /// Bytes already JSON, with `status`.
    static func json(_ status: HTTPResponse.Status, bytes: [UInt8], headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// An error body of `records` with `status`.
    public static func errors(_ status: HTTPResponse.Status, _ records: [ErrorRecord]) -> Response {
        withRetryAfter(status, bytes: errorBody(records))
    }

    /// `bytes` with `status`, and `Retry-After` when the status says to come back.
    static func withRetryAfter(_ status: HTTPResponse.Status, bytes: [UInt8]) -> Response {
        var headers: HTTPFields = [:]
        if status == .serviceUnavailable || status == .conflict { headers[.retryAfter] = "1" }
        return json(status, bytes: bytes, headers: headers)
    }

    static func errorBody(_ records: [ErrorRecord]) -> [UInt8] {
        (try? RecordJSON.encoder().encode(ErrorBody(errors: records))).map(Array.init) ?? Array(#"{"errors":[]}"#.utf8)
    }

    /// The answer for any error a handler throws; a key's refusal carries its headers:
    /// `WWW-Authenticate: Bearer` with 401, `Retry-After` with 429.
    static func failure(_ error: any Error) -> Response {
        let (status, records) = failureRecords(error)
        var response = errors(status, records)
        if let error = (error as? APIKeyError) ?? (error as? KeyRefusal)?.error {
            if error.code == .unauthenticated { response.headers[.wwwAuthenticate] = "Bearer" }
            if let seconds = error.retryAfterSeconds { response.headers[.retryAfter] = String(seconds) }
        }
        return response
    }

    /// The status and records for any error a handler throws: an `APIError` with its status, a
    /// refused request with 422 and every problem, an unreachable Redis with 503; anything else
    /// 500, its text kept out of the answer (it may name hosts or paths).
    static func failureRecords(_ error: any Error) -> (HTTPResponse.Status, [ErrorRecord]) {
        switch error {
        case let error as APIError:
            return (error.status, [ErrorRecord(error)])
        case let error as APIKeyError:
            return (HTTPResponse.Status(code: error.httpStatus), [ErrorRecord(code: error.code.rawValue, message: error.message)])
        case let refusal as KeyRefusal:
            return (
                HTTPResponse.Status(code: refusal.error.httpStatus),
                [ErrorRecord(code: refusal.error.code.rawValue, message: refusal.error.message, location: refusal.location)]
            )
        case let managed as WebhookManagementError:
            return (HTTPResponse.Status(code: managed.error.httpStatus), [ErrorRecord(code: managed.error.code.rawValue, message: managed.error.message)])
        case let error as WebhookError:
            // An endpoint a job names that is not registered (`webhook.unknown`, 404 as a status
            // of its own): the request is refused, with 422 like every bad job.
            return (.unprocessableContent, [ErrorRecord(code: error.code.rawValue, message: error.message)])
        case let refusal as EnqueueRefusal:
            return (.unprocessableContent, refusal.problems.map(ErrorRecord.init))
        case let partly as PartlyEnqueued:
            // The failure's own answer, and a record of what the pages before it enqueued.
            let (status, records) = failureRecords(partly.error)
            return (status, records + [ErrorRecord(partly.note)])
        case let error as any HTTPResponseError where error.status == .contentTooLarge:
            // Hummingbird's refusal of a body past `collectBody(upTo:)`.
            return (.contentTooLarge, [ErrorRecord(APIError(.bodyTooLarge, "the body is larger than this API reads"))])
        default:
            if ErrorSummary(error).isUnavailable {
                return (.serviceUnavailable, [ErrorRecord(APIError(.unavailable, "the queue cannot be reached; try again"))])
            }
            return (.internalServerError, [ErrorRecord(APIError(.internal, "the request failed inside the API; see its log"))])
        }
    }
}
