import DarkroomSystem

/// Everything that can go wrong talking to Redis, typed so callers can decide what to do.
///
/// `isTransient` is the retry rule the worker uses: a transient error (the connection failed or
/// dropped, a timeout, a server that is loading or busy) may succeed later, so the job is retried
/// with backoff; anything else (a bad URL, a wrong password, a script bug) will not fix itself.
public enum RedisError: CodedDarkroomError, Equatable {
    /// The URL (or `DARKROOM_REDIS_URL`) could not be parsed, or a password file could not be read.
    case invalidURL(String)
    /// No connection could be made to `endpoint` (after every reconnect attempt).
    case connectionFailed(endpoint: String, reason: String)
    /// The connection dropped while a command was in flight. The command may or may not have
    /// run on the server; the next command reconnects.
    case connectionLost(String)
    /// No reply within the command timeout (or the per-call override). The connection is closed,
    /// because the late reply would otherwise be read as the answer to the next command.
    case timeout(String)
    /// The server refused our credentials (`AUTH`), or a command needs authentication.
    case authenticationFailed(String)
    /// An error reply from the server, with its message (e.g. `WRONGTYPE Operation against…`).
    case server(String)
    /// A malformed reply or an unexpected reply shape.
    case protocolError(String)
    /// The connection (or client) was closed by its owner.
    case closed

    /// `true` when retrying later may succeed.
    public var isTransient: Bool {
        switch self {
        case .connectionFailed, .connectionLost, .timeout:
            return true
        case .server(let message):
            // Replies Redis gives while it cannot serve right now.
            let code = message.prefix { $0 != " " }
            return ["LOADING", "BUSY", "TRYAGAIN", "MASTERDOWN", "CLUSTERDOWN", "READONLY", "OOM"]
                .contains(String(code))
        case .invalidURL, .authenticationFailed, .protocolError, .closed:
            return false
        }
    }

    /// The error code word of a server error (`NOSCRIPT`, `WRONGTYPE`, `ERR`…), else `nil`.
    public var serverCode: String? {
        guard case .server(let message) = self else { return nil }
        return String(message.prefix { $0 != " " })
    }

    public var description: String {
        switch self {
        case .invalidURL(let why): return "invalid Redis URL: \(why)"
        case .connectionFailed(let endpoint, let reason):
            return "cannot connect to Redis at \(endpoint): \(reason) (is redis-server running? check --redis / DARKROOM_REDIS_URL)"
        case .connectionLost(let reason): return "Redis connection lost: \(reason)"
        case .timeout(let what): return "Redis timed out: \(what)"
        case .authenticationFailed(let message):
            return "Redis authentication failed: \(message) (check the user and password in DARKROOM_REDIS_URL or the password file)"
        case .server(let message): return "Redis error: \(message)"
        case .protocolError(let message): return "Redis protocol error: \(message)"
        case .closed: return "the Redis connection is closed"
        }
    }
}

extension RedisError {
    /// One code for every Redis failure; the message and `isTransient` tell them apart.
    public enum Code: String, CaseIterable, Sendable {
        case redis = "queue.redis"
    }

    public var code: Code { .redis }

    /// The server is out of reach (down, dropped, timing out, closed), refuses our credentials,
    /// or replies that it cannot serve right now (LOADING, BUSY…): Redis is unavailable, not the
    /// request wrong.
    public var isUnavailable: Bool {
        switch self {
        case .connectionFailed, .connectionLost, .timeout, .authenticationFailed, .closed: return true
        case .server: return isTransient
        case .invalidURL, .protocolError: return false
        }
    }
}
