import Glibc

/// The child processes of the test servers (`RedisTestServer`, `MotoS3Server`): spawned so that
/// SIGTERM stops them and they never hold the test runner's output open, stopped with SIGTERM
/// then SIGKILL; and the small files they are configured with.
enum TestProcess {
    /// Starts `arguments` (the first looked up in `PATH` when it has no `/`), with `environment`
    /// (this process's when nil), stdin from `/dev/null` and stdout and stderr to `outputPath`
    /// (`/dev/null` when nil). Returns the pid, or `posix_spawn`'s error number.
    static func spawn(_ arguments: [String], environment: [String]? = nil, outputPath: String? = nil) -> Result<pid_t, Errno32> {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = (environment ?? []).map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        // The child must not inherit a blocked SIGTERM (test runners block signals on their
        // threads), or `terminate` would wait for its SIGKILL fallback.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        // Output to a log or /dev/null: a server that outlived its test must not hold the test
        // runner's output pipe open (swift test would wait for it forever).
        var files = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&files)
        defer { posix_spawn_file_actions_destroy(&files) }
        posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&files, 1, outputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&files, 1, 2)
        var pid: pid_t = 0
        let status =
            environment == nil
            ? posix_spawnp(&pid, arguments[0], &files, &attributes, &argv, environ)
            : posix_spawnp(&pid, arguments[0], &files, &attributes, &argv, &envp)
        return status == 0 ? .success(pid) : .failure(Errno32(code: status))
    }

    /// SIGTERM, then SIGKILL after 5 s; waits for the process either way.
    static func terminate(_ pid: pid_t) {
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(5)
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }

    /// Writes `text` to `path` (mode 0600); false when it could not.
    static func write(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return Glibc.write(fd, bytes, bytes.count) == bytes.count
    }

    /// The whole of `path`, or nil when it cannot be opened.
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An error number from `posix_spawn`.
    struct Errno32: Error {
        var code: Int32
    }
}
