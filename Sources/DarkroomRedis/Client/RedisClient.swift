import DarkroomSystem
import Synchronization

/// The async face of Redis: a pool of `RedisConnection`s used from `BlockingWorkPool` threads, so
/// hiredis' blocking socket calls never run on Swift's cooperative pool.
///
/// Two pools, so slow blocking reads cannot starve quick commands:
/// - `command`, `pipeline`, `evalsha`, `withConnection` borrow one of up to `connections`
///   connections on one of as many threads (a mutex-protected stack of idle connections; a
///   connection is created on first need and reused after);
/// - `withDedicatedConnection` runs a closure of blocking calls (`XREADGROUP … BLOCK 2000`) on one
///   of up to `dedicatedConnections` other threads, each with its own connection. More concurrent
///   blocking readers than that wait for a thread, so size it to the readers you run.
///
/// A task cancelled while its call is in Redis still waits for the call (C code cannot be
/// interrupted): keep server-side block times short (1–5 s) and check cancellation between reads.
public final class RedisClient: Sendable {
    public let url: RedisURL
    public let options: RedisConnectionOptions
    private let commandThreads: BlockingWorkPool
    private let blockingThreads: BlockingWorkPool
    private let idle = Locked<[RedisConnection]>([])
    private let idleDedicated = Locked<[RedisConnection]>([])
    private let closed = Atomic<Bool>(false)
    private let created = Atomic<Int>(0)

    /// - Parameters:
    ///   - connections: the most commands in flight at once (threads and connections).
    ///   - dedicatedConnections: the most blocking readers at once.
    public init(
        url: RedisURL, options: RedisConnectionOptions = RedisConnectionOptions(),
        connections: Int = max(4, Cores.count * 2), dedicatedConnections: Int = 4
    ) {
        self.url = url
        self.options = options
        commandThreads = BlockingWorkPool(threadCount: max(1, connections))
        blockingThreads = BlockingWorkPool(threadCount: max(1, dedicatedConnections))
    }

    deinit {
        commandThreads.shutdown()
        blockingThreads.shutdown()
    }

    /// Connections opened so far, both pools (for tests and metrics).
    public var connectionsCreated: Int { created.load(ordering: .relaxed) }

    /// Runs one command (see `RedisConnection.command`).
    @discardableResult
    public func command(_ arguments: [String], timeout: Duration? = nil) async throws(RedisError) -> RedisReply {
        try await withConnection { connection throws(RedisError) in try connection.command(arguments, timeout: timeout) }
    }

    /// Runs one command with binary-safe arguments.
    @discardableResult
    public func command(_ arguments: [[UInt8]], timeout: Duration? = nil) async throws(RedisError) -> RedisReply {
        try await withConnection { connection throws(RedisError) in try connection.command(arguments, timeout: timeout) }
    }

    /// Pipelines `commands` on one connection (see `RedisConnection.pipeline`).
    public func pipeline(_ commands: [[String]]) async throws(RedisError) -> [RedisReply] {
        try await withConnection { connection throws(RedisError) in try connection.pipeline(commands) }
    }

    /// Pipelines binary-safe commands on one connection.
    public func pipeline(_ commands: [[[UInt8]]]) async throws(RedisError) -> [RedisReply] {
        try await withConnection { connection throws(RedisError) in try connection.pipeline(commands) }
    }

    /// Runs a script with `EVALSHA` and the `NOSCRIPT` fallback.
    @discardableResult
    public func evalsha(_ script: RedisScript, keys: [String], arguments: [String] = []) async throws(RedisError) -> RedisReply {
        try await withConnection { connection throws(RedisError) in
            try connection.evalsha(script, keys: keys, arguments: arguments)
        }
    }

    /// Runs `body` on a pool thread with a borrowed connection — for a few quick commands that
    /// belong together (a `MULTI`/`EXEC`, a read then a write). Do not block in it.
    public func withConnection<T: Sendable>(
        _ body: @escaping @Sendable (RedisConnection) throws(RedisError) -> T
    ) async throws(RedisError) -> T {
        try await run(on: commandThreads, body)
    }

    /// Runs `body` on a thread reserved for blocking calls, with a connection no other call uses
    /// meanwhile. Give blocking commands a `timeout:` a little over their server-side block time.
    public func withDedicatedConnection<T: Sendable>(
        _ body: @escaping @Sendable (RedisConnection) throws(RedisError) -> T
    ) async throws(RedisError) -> T {
        try await run(on: blockingThreads, body)
    }

    /// Closes every idle connection; later calls throw `RedisError.closed`. Calls in progress finish.
    public func close() {
        closed.store(true, ordering: .sequentiallyConsistent)
        for connection in idle.withLock({ stack in
            defer { stack = [] }
            return stack
        }) { connection.close() }
        for connection in idleDedicated.withLock({ stack in
            defer { stack = [] }
            return stack
        }) { connection.close() }
    }

    private func run<T: Sendable>(
        on threads: BlockingWorkPool,
        _ body: @escaping @Sendable (RedisConnection) throws(RedisError) -> T
    ) async throws(RedisError) -> T {
        guard !closed.load(ordering: .sequentiallyConsistent) else { throw .closed }
        let isDedicated = threads === blockingThreads
        do {
            return try await threads.run { [self] in
                let connection = borrow(dedicated: isDedicated)
                defer { giveBack(connection, dedicated: isDedicated) }
                return try body(connection)
            }
        } catch let error as RedisError {
            throw error
        } catch {
            throw .protocolError("unexpected error: \(error)")
        }
    }

    private func borrow(dedicated: Bool) -> RedisConnection {
        let reused = dedicated ? idleDedicated.withLock { $0.popLast() } : idle.withLock { $0.popLast() }
        if let reused { return reused }
        created.add(1, ordering: .relaxed)
        // Opens lazily on its first command, on this pool thread, with the reconnect backoff.
        return RedisConnection(url: url, options: options)
    }

    private func giveBack(_ connection: RedisConnection, dedicated: Bool) {
        if closed.load(ordering: .sequentiallyConsistent) {
            connection.close()
            return
        }
        if dedicated {
            idleDedicated.withLock { $0.append(connection) }
        } else {
            idle.withLock { $0.append(connection) }
        }
    }
}
