import DarkroomSystem
import Glibc

/// A real HTTP/1.1 server for tests, on a loopback address and a free port, written on POSIX
/// sockets with a thread per connection.
///
/// It counts what reaches it (connections accepted, requests per path, clients that hung up
/// mid-body), so a test can prove a refused fetch never connected. It is bounded: at most
/// `maxConnections` connections (more are closed at once), requests up to 16 KB of headers, idle
/// connections dropped after `idleTimeout` (3 s unless given), and it stops itself after
/// `lifetime` even if a test forgets to.
///
///     let server = try TestHTTPServer { request in
///         request.path == "/a.jpg" ? .ok(bytes) : .status(404)
///     }
///     defer { server.stop() }
///     … fetch server.url("/a.jpg") …
///     #expect(server.requestCount("/a.jpg") == 1)
public final class TestHTTPServer: Sendable {
    /// The address listened on (`127.0.0.1`, `127.0.0.2`, `::1`).
    public let host: String
    public let port: Int
    private let core: Core

    /// Starts listening on `host` at a free port; `handler` answers each request on the
    /// connection's thread.
    public init(
        host: String = "127.0.0.1", maxConnections: Int = 64, lifetime: Duration = .seconds(60),
        idleTimeout: Duration = .seconds(3),
        handler: @escaping @Sendable (TestHTTPRequest) -> TestHTTPResponse
    ) throws {
        let (fd, port) = try Self.openListener(on: host)
        self.host = host
        self.port = port
        let origin = host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
        core = Core(
            listenFD: fd, origin: origin, maxConnections: maxConnections,
            deadline: ContinuousClock.now + lifetime, idleSeconds: Int(idleTimeout.components.seconds), handler: handler)
        let core = self.core
        Self.spawnThread { core.acceptLoop() }
    }

    deinit {
        core.stop()
    }

    /// `http://127.0.0.1:PORT`.
    public var origin: String { core.origin }

    /// `origin` + `path`.
    public func url(_ path: String) -> String { origin + path }

    /// Connections accepted so far, counted after the accept loop has caught up with any
    /// connection already made.
    public var connectionCount: Int {
        core.settle()
        return core.state.withLock { $0.connections }
    }

    /// Requests received for `path` (query ignored).
    public func requestCount(_ path: String) -> Int {
        core.state.withLock { $0.requests.filter { $0.path == path }.count }
    }

    /// Every request received, in order.
    public var requests: [TestHTTPRequest] { core.state.withLock { $0.requests } }

    /// Bodies the client stopped reading before they were fully sent.
    public var clientHangUps: Int { core.state.withLock { $0.hangUps } }

    /// Body bytes actually sent to clients.
    public var bodyBytesSent: Int { core.state.withLock { $0.bodyBytesSent } }

    /// Stops accepting (the listening socket is closed when this returns), and wakes and ends
    /// open connections.
    public func stop() {
        core.stop()
        core.settle()
    }

    /// Waits up to `timeout` for `condition`, checking every 5 ms without blocking a thread;
    /// true if it became true.
    public func wait(upTo timeout: Duration = .seconds(10), until condition: (TestHTTPServer) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition(self)
    }
}

extension TestHTTPServer {
    public struct State: Sendable {
        var connections = 0
        var requests: [TestHTTPRequest] = []
        var openSockets: Set<Int32> = []
        var stopping = false
        var acceptLoopEnded = false
        var acceptPasses = 0
        var hangUps = 0
        var bodyBytesSent = 0
    }

    /// The part the threads hold, so dropping the `TestHTTPServer` stops them.
    public final class Core: Sendable {
        let listenFD: Int32
        let origin: String
        let maxConnections: Int
        let deadline: ContinuousClock.Instant
        /// How long a connection may stay silent before the server drops it (whole seconds).
        let idleSeconds: Int
        let handler: @Sendable (TestHTTPRequest) -> TestHTTPResponse
        let state = Locked(State())

        init(
            listenFD: Int32, origin: String, maxConnections: Int, deadline: ContinuousClock.Instant, idleSeconds: Int,
            handler: @escaping @Sendable (TestHTTPRequest) -> TestHTTPResponse
        ) {
            self.listenFD = listenFD
            self.origin = origin
            self.maxConnections = maxConnections
            self.deadline = deadline
            self.idleSeconds = max(idleSeconds, 1)
            self.handler = handler
        }

        var isStopping: Bool { state.withLock { $0.stopping } || ContinuousClock.now >= deadline }

        func stop() {
            state.withLock { state in
                state.stopping = true
                // Only wake the connection threads; each closes its own socket, so a descriptor is
                // never closed twice or closed after the number was reused.
                for fd in state.openSockets { shutdown(fd, Int32(SHUT_RDWR)) }
            }
        }

        func acceptLoop() {
            while !isStopping {
                var entry = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
                if poll(&entry, 1, 10) > 0 {
                    let fd = accept(listenFD, nil, nil)
                    if fd >= 0 { admit(fd) }
                }
                state.withLock { $0.acceptPasses += 1 }
            }
            close(listenFD)
            state.withLock { $0.acceptLoopEnded = true }
        }

        private func admit(_ fd: Int32) {
            let admitted = state.withLock { state -> Bool in
                state.connections += 1
                guard state.openSockets.count < maxConnections, !state.stopping else { return false }
                state.openSockets.insert(fd)
                return true
            }
            guard admitted else {
                close(fd)
                return
            }
            TestHTTPServer.spawnThread { [self] in
                serve(fd)
                state.withLock { _ = $0.openSockets.remove(fd) }
                close(fd)
            }
        }

        /// Returns once the accept loop has run two full passes since the call (so a connection
        /// the kernel already completed has been accepted and counted), or has ended.
        func settle() {
            let start = state.withLock { $0.acceptPasses }
            let deadline = ContinuousClock.now + .seconds(1)
            while ContinuousClock.now < deadline {
                let (passes, ended) = state.withLock { ($0.acceptPasses, $0.acceptLoopEnded) }
                if ended || passes >= start + 2 { return }
                usleep(2_000)
            }
        }
    }
}
