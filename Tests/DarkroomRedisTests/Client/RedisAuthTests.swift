import DarkroomTestSupport
import Testing

@testable import DarkroomRedis

@Suite("Redis connection: authentication")
struct RedisAuthTests {
    @Test("A requirepass server accepts the password from the URL")
    func password() throws {
        let server = try RedisTestServer(password: "pa ss%word")
        defer { server.stop() }
        let url = try RedisURL("redis://:pa%20ss%25word@127.0.0.1:\(server.port)")
        let redis = try RedisConnection.connect(url: url, options: RedisTestKit.quickOptions)
        #expect(try redis.command(["SET", "k", "v"]) == .status("OK"))
    }

    @Test("An ACL user logs in with AUTH user password")
    func aclUser() throws {
        let server = try RedisTestServer(password: "adminpw", user: .init(name: "worker", password: "w0rker"))
        defer { server.stop() }
        let redis = try RedisConnection.connect(
            url: RedisURL(server.url(username: "worker", password: "w0rker")),
            options: RedisTestKit.quickOptions)
        #expect(try redis.command(["ACL", "WHOAMI"]).string == "worker")
    }

    @Test("A wrong password is an authentication error that says what to check, and is not retried")
    func wrongPassword() throws {
        let server = try RedisTestServer(password: "right")
        defer { server.stop() }
        let url = try RedisURL(server.url(password: "wrong"))
        let error = try #require(throws: RedisError.self) {
            try RedisConnection.connect(url: url, options: RedisTestKit.quickOptions)
        }
        guard case .authenticationFailed(let message) = error else {
            Issue.record("expected authenticationFailed, got \(error)")
            return
        }
        #expect(message.hasPrefix("WRONGPASS"))
        #expect("\(error)".contains("password"))
        #expect(!"\(error)".contains("wrong"))  // never echoes the password tried
        #expect(!error.isTransient)
    }

    @Test("A wrong ACL user password is refused the same way")
    func wrongUserPassword() throws {
        let server = try RedisTestServer(user: .init(name: "worker", password: "w0rker"))
        defer { server.stop() }
        let error = try #require(throws: RedisError.self) {
            try RedisConnection.connect(
                url: RedisURL(server.url(username: "worker", password: "nope")),
                options: RedisTestKit.quickOptions)
        }
        #expect(error == .authenticationFailed(error.authMessage))
    }

    @Test("No password for a server that needs one fails on the first command with NOAUTH")
    func missingPassword() throws {
        let server = try RedisTestServer(password: "needed")
        defer { server.stop() }
        let redis = RedisConnection(url: try RedisURL("redis://127.0.0.1:\(server.port)"), options: RedisTestKit.quickOptions)
        let error = try #require(throws: RedisError.self) { try redis.command(["GET", "k"]) }
        #expect(error.authMessage.hasPrefix("NOAUTH"))
    }
}

extension RedisError {
    fileprivate var authMessage: String {
        if case .authenticationFailed(let message) = self { return message }
        return ""
    }
}
