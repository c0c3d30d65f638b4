import Crypto
import DarkroomSystem

/// Where the answers to requests sent with an `Idempotency-Key` are kept (Redis:
/// `RedisIdempotencyStore`), so that any API process behind the load balancer answers a repeat.
///
/// A key lives in a scope: the job API uses the API key's id, so two callers' keys never meet.
public protocol IdempotencyStore: Sendable {
    /// Claims `key` for a request whose body and endpoint hash to `fingerprint`, or says what the
    /// key already holds.
    func claim(scope: String, key: String, fingerprint: String) async throws -> IdempotencyClaim
    /// Keeps the answer of the claimed request for the key's lifetime.
    func complete(scope: String, key: String, fingerprint: String, status: Int, body: [UInt8]) async throws
    /// Forgets a claim whose request failed without an answer worth repeating (a 5xx), so a retry
    /// runs again.
    func release(scope: String, key: String) async throws
}

/// What an `Idempotency-Key` holds when a request arrives with it.
public enum IdempotencyClaim: Sendable, Equatable {
    /// The key was free: this request runs, and its answer is kept.
    case claimed
    /// A request with the same body was answered: this is its answer, to send again.
    case replay(status: Int, body: [UInt8])
    /// A request with the same body holds the key and has not been answered yet.
    case inFlight
    /// The key was used with another body (or endpoint).
    case reused
}

/// The rules of `Idempotency-Key`.
public enum IdempotencyKeys {
    /// The header.
    public static let header = "Idempotency-Key"
    /// How long an answer is kept.
    public static let lifetime: Duration = .seconds(24 * 3600)
    /// How long a claim without an answer holds the key (a process that died mid-request).
    public static let inFlightLifetime: Duration = .seconds(60)
    /// The longest key, in bytes.
    public static let maxKeyBytes = 255

    /// Whether `key` is 1–255 bytes of printable ASCII without spaces.
    public static func isValid(_ key: String) -> Bool {
        (1...maxKeyBytes).contains(key.utf8.count) && key.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// The fingerprint of a request: SHA-256 over the endpoint and the body's exact bytes.
    public static func fingerprint(endpoint: String, body: [UInt8]) -> String {
        var hash = SHA256()
        hash.update(data: Array(endpoint.utf8) + [0])
        hash.update(data: body)
        return HexDigits.lowercase(hash.finalize())
    }
}
