import DarkroomSystem
import Glibc

/// A real `redis-server` for tests: its own process on a free loopback port, in a fresh temporary
/// directory (config, log, optional unix socket), no persistence, killed by `stop()` or `deinit`.
///
///     let redis = try RedisTestServer(password: "s3cret")
///     defer { redis.stop() }
///     … RedisURL(redis.url) …
///
/// A missing `redis-server` is an error (tests fail loudly, never skip): install it with
/// `apt-get install redis-server`, or point `REDIS_SERVER` at the binary.
public final class RedisTestServer: Sendable {
    /// An ACL user created at start-up with every permission (`on >password ~* &* +@all`).
    public struct User: Sendable {
        public let name: String
        public let password: String
        public init(name: String, password: String) {
            self.name = name
            self.password = password
        }
    }

    public let port: Int
    /// The `requirepass` password of the `default` user, if any.
    public let password: String?
    public let user: User?
    /// The unix socket path when started with `unixSocket: true`.
    public let unixSocketPath: String?
    /// The temporary directory holding `redis.conf`, `redis.log` and the socket.
    public let directory: String
    /// Whether writes go to an append-only file (fsync on every write), so data survives `stop()` + `start()`.
    public let appendOnly: Bool
    private let binary: String
    private let process = Locked<pid_t?>(nil)

    /// - Parameter appendOnly: persist every write (`appendonly yes`, `appendfsync always`), for
    ///   tests that restart the server and expect their data back.
    public init(password: String? = nil, user: User? = nil, unixSocket: Bool = false, appendOnly: Bool = false) throws {
        self.appendOnly = appendOnly
        binary = try Self.findBinary()
        var template = Array("/tmp/darkroom-redis-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw RedisTestServerError(description: "mkdtemp failed: errno \(errno)")
        }
        directory = String(cString: made)
        LiveServers.add(directory: directory)
        self.password = password
        self.user = user
        unixSocketPath = unixSocket ? directory + "/redis.sock" : nil
        // Pick a free port by binding port 0 and closing; another process may grab it before
        // redis-server binds, so a start that fails with "Address already in use" tries again.
        var lastError = RedisTestServerError(description: "redis-server did not start")
        for _ in 0..<5 {
            let (fd, candidate) = try TestHTTPServer.openListener(on: "127.0.0.1")
            close(fd)
            do {
                try Self.launch(
                    binary: binary, directory: directory, port: candidate, password: password,
                    user: user, unixSocket: unixSocketPath, appendOnly: appendOnly, into: process)
                port = candidate
                return
            } catch let error as RedisTestServerError {
                lastError = error
                if !error.description.contains("already in use") { break }
            }
        }
        Self.removeDirectory(directory)
        LiveServers.remove(directory: directory)
        throw lastError
    }

    deinit {
        stop()
        Self.removeDirectory(directory)
        LiveServers.remove(directory: directory)
    }

    /// `redis://127.0.0.1:PORT` with the default user's password when there is one.
    public var url: String { url(database: 0) }

    /// A URL for this server with the given credentials and database.
    public func url(username: String? = nil, password: String? = nil, database: Int = 0) -> String {
        let secret = password ?? (username == nil ? self.password : nil)
        var credentials = ""
        if username != nil || secret != nil { credentials = (username ?? "") + ":" + (secret ?? "") + "@" }
        return "redis://\(credentials)127.0.0.1:\(port)/\(database)"
    }

    /// Whether the process is running.
    public var isRunning: Bool { process.withLock { $0 != nil } }

    /// Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. Clients see
    /// their connections closed. Safe to call twice.
    public func stop() {
        process.withLock { pid in
            guard let running = pid else { return }
            pid = nil
            Self.terminate(running)
        }
    }

    /// Starts the server again on the same port (after `stop()`), e.g. to test reconnects.
    /// A restart waits on real time (clients reconnecting, a follower resuming): the test must be
    /// marked `.realTime`.
    public func start() throws {
        RealTime.require("Restarting redis-server")
        guard !isRunning else { return }
        try Self.launch(
            binary: binary, directory: directory, port: port, password: password, user: user,
            unixSocket: unixSocketPath, appendOnly: appendOnly, into: process)
    }

    // MARK: - Process

    private static func findBinary() throws -> String {
        var candidates = ["/usr/bin/redis-server", "/usr/local/bin/redis-server", "/opt/homebrew/bin/redis-server"]
        if let override = getenv("REDIS_SERVER") { candidates.insert(String(cString: override), at: 0) }
        for path in candidates where access(path, X_OK) == 0 { return path }
        throw RedisTestServerError(
            description: "redis-server not found (looked in \(candidates.joined(separator: ", "))); "
                + "install it with `apt-get install redis-server` or set REDIS_SERVER — Redis tests need a real server")
    }

    private static func launch(
        binary: String, directory: String, port: Int, password: String?, user: User?,
        unixSocket: String?, appendOnly: Bool, into process: Locked<pid_t?>
    ) throws {
        var config = """
            port \(port)
            bind 127.0.0.1
            protected-mode no
            daemonize no
            save ""
            appendonly \(appendOnly ? "yes" : "no")
            appendfsync always
            dir \(directory)
            logfile \(directory)/redis.log
            """
        if let unixSocket { config += "\nunixsocket \(unixSocket)\nunixsocketperm 700" }
        if let password { config += "\nrequirepass \(quoted(password))" }
        if let user { config += "\nuser \(quoted(user.name)) on \(quoted(">" + user.password)) ~* &* +@all" }
        config += "\n"
        try write(config, to: directory + "/redis.conf")
        _ = unlink(directory + "/redis.log")

        // Under coreutils `timeout` when available, so even a server whose test process died
        // (or leaked it) exits after `lifetime`; SIGTERM to `timeout` is passed on to redis-server.
        let useTimeout = access("/usr/bin/timeout", X_OK) == 0
        let launcher = useTimeout ? "/usr/bin/timeout" : binary
        let arguments = (useTimeout ? [launcher, "\(lifetimeSeconds)"] : []) + [binary, directory + "/redis.conf"]
        let pid: pid_t
        switch TestProcess.spawn(arguments) {
        case .success(let started): pid = started
        case .failure(let error): throw RedisTestServerError(description: "posix_spawn \(binary) failed: \(error.code)")
        }

        // Ready when it answers PING (`+PONG`, or `-NOAUTH` when a password is set).
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            var exitStatus: Int32 = 0
            if waitpid(pid, &exitStatus, WNOHANG) == pid {
                let log = (try? read(directory + "/redis.log")) ?? ""
                throw RedisTestServerError(description: "redis-server exited at start-up: \(log.suffix(600))")
            }
            if let answer = ping(port: port), answer.hasPrefix("+PONG") || answer.hasPrefix("-NOAUTH") {
                process.withLock { $0 = pid }
                LiveServers.add(pid)
                return
            }
            usleep(20_000)
        }
        terminate(pid)
        throw RedisTestServerError(description: "redis-server did not answer PING on port \(port) within 10 s")
    }

    /// A redis.conf string argument: double-quoted, with `\\` and `"` escaped.
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }

    /// The longest a server may live (15 minutes), a backstop for leaks.
    private static let lifetimeSeconds = 900

    private static func terminate(_ pid: pid_t) {
        LiveServers.remove(pid)
        TestProcess.terminate(pid)
    }

    /// Sends `PING` over a plain socket and returns the first line of the answer, or `nil`.
    private static func ping(port: Int) -> String? {
        guard let fd = LoopbackSocket.connected(toPort: port) else { return nil }
        defer { close(fd) }
        let request = Array("PING\r\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    // MARK: - Files

    private static func write(_ text: String, to path: String) throws {
        guard TestProcess.write(text, to: path) else { throw RedisTestServerError(description: "cannot write \(path): errno \(errno)") }
    }

    private static func read(_ path: String) throws -> String {
        guard let text = TestProcess.read(path) else { throw RedisTestServerError(description: "cannot read \(path)") }
        return text
    }

    fileprivate static func removeDirectory(_ path: String) {
        guard let dir = opendir(path) else { return }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { unlink(path + "/" + name) }
        }
        closedir(dir)
        rmdir(path)
    }
}

public struct RedisTestServerError: Error, CustomStringConvertible {
    public let description: String
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

/// Every running server's pid and every server's directory. An `atexit` handler kills the
/// servers and removes the directories, so a server a test forgot to stop (or that a retained
/// closure kept alive past its test) dies with the test process and leaves nothing in /tmp.
private enum LiveServers {
    private struct Registry {
        var pids: Set<pid_t> = []
        var directories: Set<String> = []
    }

    private static let registry: Locked<Registry> = {
        atexit {
            let leftovers = LiveServers.registry.withLock { $0 }
            var status: Int32 = 0
            for pid in leftovers.pids { kill(pid, SIGTERM) }
            for pid in leftovers.pids { waitpid(pid, &status, 0) }
            for directory in leftovers.directories { RedisTestServer.removeDirectory(directory) }
        }
        return Locked(Registry())
    }()

    static func add(_ pid: pid_t) { registry.withLock { _ = $0.pids.insert(pid) } }
    static func remove(_ pid: pid_t) { registry.withLock { _ = $0.pids.remove(pid) } }
    static func add(directory: String) { registry.withLock { _ = $0.directories.insert(directory) } }
    static func remove(directory: String) { registry.withLock { _ = $0.directories.remove(directory) } }
}
