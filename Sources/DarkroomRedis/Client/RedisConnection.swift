import DarkroomSystem
import Synchronization

/// One Redis connection over hiredis: blocking calls, made from whatever thread calls them.
///
/// **Threads.** Every call runs under an internal `Locked`, so a connection is `Sendable` and can
/// be shared, but calls on one connection run one after another (Redis answers in order on a
/// connection anyway). The mutex is what makes it safe: the hiredis context is only reachable
/// inside `withSession`, which holds the lock for the whole request and reply. For parallelism use
/// several connections — `RedisClient` keeps a pool of them on its own threads, so async code never
/// blocks the cooperative pool. `close()` waits for a call in progress to return.
///
/// **Failures and reconnects.** The connection is opened lazily (or eagerly with `connect`).
/// Opening retries `options.reconnectAttempts` times with exponential backoff and jitter. A
/// connection the server closed while idle (a Redis restart) is noticed before the next command
/// and reopened transparently. A connection that fails *during* a command throws `connectionLost`
/// or `timeout` and is discarded; the command is not resent (it may have run), and the next call
/// reconnects. Error replies throw `RedisError.server` (or `authenticationFailed` for `NOAUTH`/
/// `WRONGPASS`) and keep the connection.
///
/// **Blocking reads** (`BLPOP`, `XREADGROUP … BLOCK`) are ordinary commands with a `timeout:`
/// override a little longer than the server-side block time; run them on a dedicated connection
/// (`RedisClient.withDedicatedConnection`).
///
/// **TLS** is not available: hiredis 0.14 has none. Use a TLS sidecar (stunnel) — see `RedisURL`.
public final class RedisConnection: Sendable {
    public let url: RedisURL
    public let options: RedisConnectionOptions
    private let state = Locked<State>(State())

    private struct State: ~Copyable {
        var session: HiredisSession?
        var closed = false
        var connects = 0
    }

    /// A connection that opens on first use.
    public init(url: RedisURL, options: RedisConnectionOptions = RedisConnectionOptions()) {
        self.url = url
        self.options = options
    }

    /// Opens a connection now (with the reconnect attempts), so a wrong address or password is
    /// reported at start-up rather than on the first command.
    public static func connect(url: RedisURL, options: RedisConnectionOptions = RedisConnectionOptions()) throws(RedisError) -> RedisConnection {
        let connection = RedisConnection(url: url, options: options)
        try connection.withSession { _ throws(RedisError) in () }
        return connection
    }

    /// How many times a socket has been opened (1 for a healthy connection; more after reconnects).
    public var connectCount: Int { state.withLock { $0.connects } }

    /// Closes the socket. Later calls throw `RedisError.closed`.
    public func close() {
        state.withLock { state in
            state.closed = true
            state.session = nil
        }
    }

    // MARK: - Commands

    /// Runs one command; `timeout` overrides `options.commandTimeout` for this call only.
    /// Error replies throw `RedisError.server`.
    @discardableResult
    public func command(_ arguments: [String], timeout: Duration? = nil) throws(RedisError) -> RedisReply {
        try command(arguments.map { Array($0.utf8) }, timeout: timeout)
    }

    /// Runs one command with binary-safe arguments.
    @discardableResult
    public func command(_ arguments: [[UInt8]], timeout: Duration? = nil) throws(RedisError) -> RedisReply {
        let reply = try withSession { session throws(RedisError) in
            try session.setTimeout(timeout ?? options.commandTimeout)
            return try session.roundTrip(arguments)
        }
        return try Self.checked(reply)
    }

    /// Sends every command, then reads every reply: one round trip per `options.pipelineChunk`
    /// commands. Error replies come back as `.error` elements, in order, so one failure does not
    /// hide the others; a connection failure throws (some commands may have run).
    public func pipeline(_ commands: [[String]]) throws(RedisError) -> [RedisReply] {
        try pipeline(commands.map { $0.map { Array($0.utf8) } })
    }

    /// `pipeline` with binary-safe arguments.
    public func pipeline(_ commands: [[[UInt8]]]) throws(RedisError) -> [RedisReply] {
        guard !commands.isEmpty else { return [] }
        return try withSession { session throws(RedisError) in
            try session.setTimeout(options.commandTimeout)
            var replies: [RedisReply] = []
            replies.reserveCapacity(commands.count)
            var start = 0
            while start < commands.count {
                let end = min(start + options.pipelineChunk, commands.count)
                for index in start..<end { try session.append(commands[index]) }
                for _ in start..<end { replies.append(try session.readReply()) }
                start = end
            }
            return replies
        }
    }

    /// `PING`; returns when the server answered `PONG`.
    public func ping() throws(RedisError) {
        let reply = try command(["PING"])
        guard reply == .status("PONG") else { throw .protocolError("PING answered \(reply)") }
    }

    // MARK: - Scripts

    /// Loads `script` with `SCRIPT LOAD` and remembers the sha Redis returns.
    @discardableResult
    public func load(_ script: RedisScript) throws(RedisError) -> String {
        try withSession { session throws(RedisError) in try Self.load(script, on: session) }
    }

    /// Runs `script` with `EVALSHA`, loading it first when needed and again after `NOSCRIPT`.
    @discardableResult
    public func evalsha(
        _ script: RedisScript, keys: [String], arguments: [String] = [],
        timeout: Duration? = nil
    ) throws(RedisError) -> RedisReply {
        try evalsha(script, keys: keys.map { Array($0.utf8) }, arguments: arguments.map { Array($0.utf8) }, timeout: timeout)
    }

    /// `evalsha` with binary-safe keys and arguments.
    @discardableResult
    public func evalsha(
        _ script: RedisScript, keys: [[UInt8]], arguments: [[UInt8]],
        timeout: Duration? = nil
    ) throws(RedisError) -> RedisReply {
        let tail = [Array(String(keys.count).utf8)] + keys + arguments
        let reply = try withSession { session throws(RedisError) in
            try session.setTimeout(timeout ?? options.commandTimeout)
            let sha: String
            if let known = script.sha { sha = known } else { sha = try Self.load(script, on: session) }
            let first = try session.roundTrip([Array("EVALSHA".utf8), Array(sha.utf8)] + tail)
            guard case .error(let message) = first, message.hasPrefix("NOSCRIPT") else { return first }
            let reloaded = try Self.load(script, on: session)
            return try session.roundTrip([Array("EVALSHA".utf8), Array(reloaded.utf8)] + tail)
        }
        return try Self.checked(reply)
    }

    private static func load(_ script: RedisScript, on session: HiredisSession) throws(RedisError) -> String {
        let reply = try session.roundTrip([Array("SCRIPT".utf8), Array("LOAD".utf8), Array(script.source.utf8)])
        try reply.throwingOnError()
        guard let sha = reply.string, sha.count == 40 else { throw .protocolError("SCRIPT LOAD answered \(reply)") }
        script.remember(sha: sha)
        return sha
    }

    // MARK: - Session handling

    /// Runs `body` with an open session under the lock, opening one (with backoff) when there is
    /// none or the idle one went stale, and discarding it when `body` leaves the stream unusable.
    private func withSession<T: Sendable>(_ body: (HiredisSession) throws(RedisError) -> T) throws(RedisError) -> T {
        try state.withLock { (state: inout State) throws(RedisError) -> T in
            if state.closed { throw .closed }
            if let session = state.session, session.isStale { state.session = nil }
            let session: HiredisSession
            if let open = state.session {
                session = open
            } else {
                session = try openWithBackoff()
                state.session = session
                state.connects += 1
            }
            do throws(RedisError) {
                return try body(session)
            } catch {
                switch error {
                case .connectionLost, .timeout, .protocolError, .connectionFailed: state.session = nil
                default: break
                }
                throw error
            }
        }
    }

    private func openWithBackoff() throws(RedisError) -> HiredisSession {
        var attempt = 0
        while true {
            do {
                return try HiredisSession.open(url, options: options)
            } catch {
                attempt += 1
                // Only an unreachable server is worth waiting for; a wrong password is not.
                guard case .connectionFailed = error, attempt < options.reconnectAttempts else { throw error }
                RedisSleep.sleep(options.backoff(beforeAttempt: attempt))
            }
        }
    }

    private static func checked(_ reply: RedisReply) throws(RedisError) -> RedisReply {
        guard case .error(let message) = reply else { return reply }
        if message.hasPrefix("NOAUTH") || message.hasPrefix("WRONGPASS") {
            throw .authenticationFailed(message)
        }
        throw .server(message)
    }
}
