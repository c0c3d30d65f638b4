import DarkroomTestSupport
import Glibc
import Testing

@testable import DarkroomRedis

@Suite("Redis connection: timeouts, blocking reads and reconnects", .realTime)
struct RedisTimeoutAndReconnectRealTimeTests {
    @Test("A BLPOP longer than its per-call timeout throws timeout, and the next command reconnects")
    func blockingTimeout() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let redis = try RedisTestKit.connect(server)
        let error = try #require(throws: RedisError.self) {
            try redis.command(["BLPOP", "never", "10"], timeout: .milliseconds(200))
        }
        guard case .timeout = error else {
            Issue.record("expected timeout, got \(error)")
            return
        }
        #expect(error.isTransient)
        // The late reply must not be read as the answer to this command: a fresh socket is used.
        #expect(try redis.command(["ECHO", "after"]).string == "after")
        #expect(redis.connectCount == 2)
    }

    @Test("A server-side BLPOP timeout within the call timeout is a nil reply, not an error")
    func serverSideTimeout() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let redis = try RedisTestKit.connect(server)
        #expect(try redis.command(["BLPOP", "never", "0.1"], timeout: .seconds(3)) == .null)
        #expect(redis.connectCount == 1)
    }

    @Test("A blocked BLPOP returns as soon as another connection pushes")
    func blockingWakesOnPush() async throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let reader = try RedisTestKit.connect(server)
        let writer = try RedisTestKit.connect(server)
        async let popped = RedisTestKit.onThread { try reader.command(["BLPOP", "jobs", "10"], timeout: .seconds(15)) }
        // Push once the reader is really blocked (visible as a blocked client).
        var blocked = false
        for _ in 0..<200 where !blocked {
            blocked = try writer.command(["INFO", "clients"]).string?.contains("blocked_clients:1") == true
            if !blocked { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(blocked)
        try writer.command(["RPUSH", "jobs", "job-1"])
        let reply = try await popped
        #expect(reply == .array([.bulk(Array("jobs".utf8)), .bulk(Array("job-1".utf8))]))
    }

    @Test("After Redis restarts on the same port, the next command reconnects and succeeds")
    func reconnectAfterRestart() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let redis = try RedisTestKit.connect(server)
        try redis.command(["SET", "before", "1"])
        server.stop()
        try server.start()
        #expect(try redis.command(["SET", "after", "2"]) == .status("OK"))
        #expect(try redis.command(["GET", "before"]) == .null)  // no persistence: a new, empty server
        #expect(redis.connectCount == 2)
    }

    @Test("A command issued while Redis is down waits with backoff and succeeds once it is back")
    func reconnectWithBackoff() async throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let options = RedisConnectionOptions(
            connectTimeout: .seconds(1), commandTimeout: .seconds(5),
            reconnectAttempts: 40, initialBackoff: .milliseconds(50),
            maximumBackoff: .milliseconds(400))
        let redis = try RedisTestKit.connect(server, options: options)
        server.stop()
        async let reply = RedisTestKit.onThread { try redis.command(["PING"]) }
        try await Task.sleep(for: .milliseconds(400))
        try await RedisTestKit.onThread { try server.start() }
        #expect(try await reply == .status("PONG"))
        #expect(redis.connectCount == 2)
    }

    @Test("A connection dropped by the server mid-command throws connectionLost, then recovers")
    func killedMidCommand() async throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let redis = try RedisTestKit.connect(server)
        let admin = try RedisTestKit.connect(server)
        let id = try #require(try redis.command(["CLIENT", "ID"]).integer)
        async let outcome = RedisTestKit.onThread { () -> RedisError? in
            do throws(RedisError) {
                _ = try redis.command(["BLPOP", "never", "20"], timeout: .seconds(30))
                return nil
            } catch {
                return error
            }
        }
        // Kill it only once it is blocked in BLPOP (earlier, the idle socket would just be
        // reopened before the BLPOP is sent — correct, but not what this test is about).
        var blocked = false
        for _ in 0..<500 where !blocked {
            try await Task.sleep(for: .milliseconds(10))
            blocked = try admin.command(["CLIENT", "LIST", "ID", String(id)]).string?.contains("cmd=blpop") == true
        }
        #expect(blocked)
        #expect(try admin.command(["CLIENT", "KILL", "ID", String(id)]) == .integer(1))
        let error = try #require(try await outcome)
        guard case .connectionLost = error else {
            Issue.record("expected connectionLost, got \(error)")
            return
        }
        #expect(error.isTransient)
        try redis.ping()
    }

    @Test("Backoff grows exponentially, stays under the cap and has jitter")
    func backoffShape() {
        let options = RedisConnectionOptions(initialBackoff: .milliseconds(100), maximumBackoff: .seconds(1))
        for attempt in 1...10 {
            let delay = options.backoff(beforeAttempt: attempt)
            let full = min(Duration.milliseconds(100) * (1 << (attempt - 1)), .seconds(1))
            #expect(delay >= full / 2 && delay <= full)
        }
        let samples = Set((0..<20).map { _ in options.backoff(beforeAttempt: 4) })
        #expect(samples.count > 1)
    }
}
