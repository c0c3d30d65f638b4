import CHiredis
import DarkroomSystem
import Glibc

/// One open hiredis context: the blocking socket, its write buffer and reply reader.
///
/// Not thread-safe and not Sendable: it is only ever touched by the thread holding the owning
/// `RedisConnection`'s mutex. Any I/O error, timeout or protocol error leaves the stream at an
/// unknown position (a late reply would be read as the answer to the next command), so the owner
/// discards the session after one.
final class HiredisSession {
    private let context: UnsafeMutablePointer<redisContext>
    /// The read/write timeout currently set on the socket, to skip redundant `setsockopt` calls.
    private var currentTimeout: Duration

    private init(context: UnsafeMutablePointer<redisContext>, timeout: Duration) {
        self.context = context
        currentTimeout = timeout
    }

    deinit { redisFree(context) }

    /// Connects, then sends AUTH and SELECT when the URL asks for them. AUTH and SELECT run under
    /// the connect timeout; the socket is left with `options.commandTimeout`.
    static func open(_ url: RedisURL, options: RedisConnectionOptions) throws(RedisError) -> HiredisSession {
        let tv = makeTimeval(options.connectTimeout)
        let raw: UnsafeMutablePointer<redisContext>?
        switch url.endpoint {
        case .tcp(let host, let port): raw = redisConnectWithTimeout(host, Int32(port), tv)
        case .unix(let path): raw = redisConnectUnixWithTimeout(path, tv)
        }
        guard let raw else { throw .connectionFailed(endpoint: url.endpointDescription, reason: "out of memory") }
        if raw.pointee.err != 0 {
            let reason = errorString(raw)
            redisFree(raw)
            throw .connectionFailed(endpoint: url.endpointDescription, reason: reason)
        }
        if let reader = raw.pointee.reader { RedisReplyLimits.apply(to: reader) }
        let session = HiredisSession(context: raw, timeout: .zero)
        try session.setTimeout(options.connectTimeout)
        if let password = url.password {
            var auth = [Array("AUTH".utf8)]
            if let user = url.username { auth.append(Array(user.utf8)) }
            auth.append(Array(password.utf8))
            if case .error(let message) = try session.roundTrip(auth) {
                throw .authenticationFailed(message)
            }
        }
        if url.database != 0 {
            let reply = try session.roundTrip([Array("SELECT".utf8), Array(String(url.database).utf8)])
            if case .error(let message) = reply {
                // NOAUTH here means the server wants a password the URL did not give.
                if message.hasPrefix("NOAUTH") { throw .authenticationFailed(message) }
                throw .server("SELECT \(url.database): \(message)")
            }
        }
        try session.setTimeout(options.commandTimeout)
        return session
    }

    /// Sets the socket's read and write timeout (`SO_RCVTIMEO`/`SO_SNDTIMEO` under hiredis).
    func setTimeout(_ timeout: Duration) throws(RedisError) {
        guard timeout != currentTimeout else { return }
        guard redisSetTimeout(context, makeTimeval(timeout)) == REDIS_OK else {
            throw .connectionLost("cannot set the socket timeout: \(Self.errorString(context))")
        }
        currentTimeout = timeout
    }

    /// `true` when the server has closed the socket (or sent something nobody asked for) while the
    /// connection sat idle — e.g. Redis was restarted. Checked before reusing a connection, so a
    /// restart costs a reconnect instead of a failed command; one `poll` with a zero timeout.
    var isStale: Bool {
        var descriptor = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) != 0
    }

    /// Sends one command and reads its reply.
    func roundTrip(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        try append(arguments)
        return try readReply()
    }

    /// Adds a command to the output buffer (nothing is sent until a reply is read).
    func append(_ arguments: [[UInt8]]) throws(RedisError) {
        guard !arguments.isEmpty else { throw .protocolError("empty command") }
        // One contiguous copy of all arguments, so argv can point into stable memory.
        var total = 0
        for argument in arguments { total += argument.count }
        var storage = [UInt8]()
        storage.reserveCapacity(total + 1)
        var lengths = [Int](repeating: 0, count: arguments.count)
        for (index, argument) in arguments.enumerated() {
            storage.append(contentsOf: argument)
            lengths[index] = argument.count
        }
        storage.append(0)  // never an empty buffer, so baseAddress is never nil
        let status: Int32 = storage.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                let argv = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: arguments.count)
                defer { argv.deallocate() }
                var offset = 0
                for index in 0..<arguments.count {
                    argv[index] = UnsafePointer(chars.baseAddress! + offset)
                    offset += lengths[index]
                }
                return redisAppendCommandArgv(context, Int32(arguments.count), argv, lengths)
            }
        }
        guard status == REDIS_OK else { throw .connectionLost("cannot buffer the command: \(Self.errorString(context))") }
    }

    /// Flushes the output buffer if needed and reads the next reply.
    func readReply() throws(RedisError) -> RedisReply {
        var reply: UnsafeMutableRawPointer?
        errno = 0
        let status = redisGetReply(context, &reply)
        let savedErrno = errno
        guard status == REDIS_OK else { throw classifyFailure(errno: savedErrno) }
        guard let reply else { throw .protocolError("hiredis returned no reply") }
        defer { freeReplyObject(reply) }
        return RedisReply(copying: reply.assumingMemoryBound(to: redisReply.self))
    }

    private func classifyFailure(errno saved: Int32) -> RedisError {
        let message = Self.errorString(context)
        switch context.pointee.err {
        case REDIS_ERR_IO where saved == EAGAIN || saved == EWOULDBLOCK || saved == ETIMEDOUT:
            return .timeout("no reply within \(currentTimeout)")
        case REDIS_ERR_IO:
            if message.contains("temporarily unavailable") || message.contains("timed out") {
                return .timeout("no reply within \(currentTimeout)")
            }
            return .connectionLost(message)
        case REDIS_ERR_EOF: return .connectionLost("the server closed the connection")
        case REDIS_ERR_PROTOCOL: return .protocolError(message)
        case REDIS_ERR_OOM:
            return .protocolError(
                "the reply could not be held: an array of more than \(RedisReplyLimits.maximumArrayElements) elements, or memory ran out (\(message))"
            )
        default: return .connectionLost(message)
        }
    }

    private static func errorString(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "unknown error" : String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// A `timeval` for a duration; zero (which means "no timeout" to the socket) is raised to 1 µs.
private func makeTimeval(_ duration: Duration) -> timeval {
    let (seconds, microseconds) = duration.secondsAndMicroseconds
    var micros = microseconds
    if seconds <= 0 && micros <= 0 { micros = 1 }
    return timeval(tv_sec: Int(max(seconds, 0)), tv_usec: Int(micros))
}
