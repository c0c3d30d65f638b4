import HTTPTypes
import Hummingbird

/// Runs a submit under its `Idempotency-Key`: the first request with a key runs and its answer
/// is kept 24 h; a repeat with the same endpoint and body gets that answer again (with
/// `Idempotent-Replayed: true`) and enqueues nothing; the key with another body answers 422
/// `api.idempotency-key-reused`; a repeat while the first is unanswered, 409
/// `api.idempotency-in-flight`. Answers of 5xx are not kept: the key is freed for a retry.
struct IdempotentSubmit: Sendable {
    /// Nil: this API keeps no records, and refuses requests with a key.
    let store: (any IdempotencyStore)?

    static let replayed = HTTPField.Name("Idempotent-Replayed")!

    func answer(
        key: String?, scope: String, endpoint: String, body: [UInt8],
        run: () async throws -> (HTTPResponse.Status, [UInt8])
    ) async throws -> Response {
        guard let key else {
            let (status, bytes) = try await run()
            return APIResponse.json(status, bytes: bytes)
        }
        guard let store else { throw APIError(.invalidIdempotencyKey, "this API keeps no idempotency records; send the request without Idempotency-Key") }
        guard IdempotencyKeys.isValid(key) else {
            throw APIError(.invalidIdempotencyKey, "Idempotency-Key must be 1–255 printable ASCII characters without spaces")
        }
        let fingerprint = IdempotencyKeys.fingerprint(endpoint: endpoint, body: body)
        switch try await store.claim(scope: scope, key: key, fingerprint: fingerprint) {
        case .replay(let status, let bytes):
            var response = APIResponse.withRetryAfter(HTTPResponse.Status(code: status), bytes: bytes)
            response.headers[Self.replayed] = "true"
            return response
        case .inFlight:
            throw APIError(.idempotencyInFlight, "a request with this Idempotency-Key is still being answered; retry in a moment")
        case .reused:
            throw APIError(.idempotencyKeyReused, "this Idempotency-Key was used with another request body or endpoint; use a new key for a new request")
        case .claimed:
            let status: HTTPResponse.Status
            let bytes: [UInt8]
            do {
                (status, bytes) = try await run()
            } catch {
                let (failed, records) = APIResponse.failureRecords(error)
                guard failed.code < 500 else {
                    try? await store.release(scope: scope, key: key)
                    throw error
                }
                (status, bytes) = (failed, APIResponse.errorBody(records))
            }
            try await store.complete(scope: scope, key: key, fingerprint: fingerprint, status: status.code, body: bytes)
            return APIResponse.withRetryAfter(status, bytes: bytes)
        }
    }
}
