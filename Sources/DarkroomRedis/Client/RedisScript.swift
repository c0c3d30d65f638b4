import DarkroomSystem

/// A Lua script run with `EVALSHA`, loaded on demand.
///
/// The SHA-1 is whatever `SCRIPT LOAD` returns (Redis computes it), remembered here and shared by
/// every connection. `RedisConnection.evalsha` loads the script the first time, and again when the
/// server answers `NOSCRIPT` (after a restart, a failover or `SCRIPT FLUSH`), then retries once.
/// Keep scripts as `static let` values so the sha is learnt once per process.
public final class RedisScript: Sendable {
    public let source: String
    private let loadedSha = Locked<String?>(nil)

    public init(_ source: String) {
        self.source = source
    }

    /// The sha from the last `SCRIPT LOAD`, or `nil` before the first load.
    public var sha: String? { loadedSha.withLock { $0 } }

    func remember(sha: String) {
        loadedSha.withLock { $0 = sha }
    }
}
