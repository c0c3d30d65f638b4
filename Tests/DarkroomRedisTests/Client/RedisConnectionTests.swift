import DarkroomTestSupport
import Testing

@testable import DarkroomRedis

@Suite("Redis connection: commands and replies")
struct RedisConnectionTests {
    @Test("PING answers PONG and one socket serves many commands")
    func ping() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let redis = try RedisTestKit.connect(server)
        try redis.ping()
        try redis.ping()
        #expect(redis.connectCount == 1)
    }

    @Test("SET then GET round-trips binary values with NUL, CR/LF and invalid UTF-8 unchanged")
    func binarySafe() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let redis = try RedisTestKit.connect(server)
        let value: [UInt8] = [0, 1, 2, 0x0D, 0x0A, 0xFF, 0xFE, 0, 0x24, 0x2A] + Array(repeating: 0x80, count: 1000)
        let key: [UInt8] = Array("bin\u{0}key".utf8)
        #expect(try redis.command([Array("SET".utf8), key, value]) == .status("OK"))
        #expect(try redis.command([Array("GET".utf8), key]) == .bulk(value))
        #expect(try redis.command([Array("STRLEN".utf8), key]) == .integer(Int64(value.count)))
        #expect(try redis.command(["SET", "empty", ""]) == .status("OK"))
        #expect(try redis.command(["GET", "empty"]) == .bulk([]))
    }

    @Test("Integer, array, nil and status replies arrive as their own cases")
    func replyShapes() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let redis = try RedisTestKit.connect(server)
        #expect(try redis.command(["INCRBY", "n", "41"]) == .integer(41))
        #expect(try redis.command(["INCR", "n"]).integer == 42)
        #expect(try redis.command(["GET", "missing"]) == .null)
        #expect(try redis.command(["RPUSH", "list", "a", "b", "c"]) == .integer(3))
        let range = try redis.command(["LRANGE", "list", "0", "-1"])
        #expect(range == .array([.bulk(Array("a".utf8)), .bulk(Array("b".utf8)), .bulk(Array("c".utf8))]))
        #expect(range.array?.compactMap(\.string) == ["a", "b", "c"])
        #expect(try redis.command(["LRANGE", "nothing", "0", "-1"]) == .array([]))
        // A nil inside an array (MGET of a missing key).
        #expect(try redis.command(["MGET", "n", "missing"]) == .array([.bulk(Array("42".utf8)), .null]))
    }

    @Test("An error reply throws a server error with Redis' message and keeps the connection usable")
    func errorReply() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let redis = try RedisTestKit.connect(server)
        try redis.command(["SET", "text", "hello"])
        let error = try #require(throws: RedisError.self) { try redis.command(["INCR", "text"]) }
        #expect(error.serverCode == "ERR")
        #expect("\(error)".contains("not an integer"))
        #expect(!error.isTransient)
        let wrongType = try #require(throws: RedisError.self) { try redis.command(["LPUSH", "text", "x"]) }
        #expect(wrongType.serverCode == "WRONGTYPE")
        #expect(try redis.command(["GET", "text"]).string == "hello")
        #expect(redis.connectCount == 1)
    }

    @Test("SELECT from the URL's database keeps keys apart from database 0")
    func selectDatabase() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let db0 = try RedisConnection.connect(url: RedisURL(server.url(database: 0)), options: RedisTestKit.quickOptions)
        let db5 = try RedisConnection.connect(url: RedisURL(server.url(database: 5)), options: RedisTestKit.quickOptions)
        try db5.command(["SET", "where", "five"])
        #expect(try db0.command(["GET", "where"]) == .null)
        #expect(try db5.command(["GET", "where"]).string == "five")
        #expect(try db5.command(["CLIENT", "INFO"]).string?.contains("db=5") == true)
    }

    @Test("A database the server does not have is a clear error at connect")
    func badDatabase() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let error = try #require(throws: RedisError.self) {
            try RedisConnection.connect(url: RedisURL(server.url(database: 99)), options: RedisTestKit.quickOptions)
        }
        #expect("\(error)".contains("SELECT 99"))
    }

    @Test("A unix socket URL connects through the socket")
    func unixSocket() throws {
        let server = try RedisTestServer(unixSocket: true)
        defer { server.stop() }
        let path = try #require(server.unixSocketPath)
        let redis = try RedisConnection.connect(url: RedisURL("unix://\(path)?db=2"), options: RedisTestKit.quickOptions)
        try redis.command(["SET", "via", "socket"])
        let info = try #require(try redis.command(["CLIENT", "INFO"]).string)
        #expect(info.contains("db=2"))
        #expect(info.contains("laddr=\(path)"))
    }

    @Test("Nothing listening is a transient connection failure after the configured attempts")
    func nothingListening() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let url = try RedisURL(server.url)
        server.stop()
        let error = try #require(throws: RedisError.self) {
            try RedisConnection.connect(url: url, options: RedisTestKit.quickOptions)
        }
        guard case .connectionFailed(let endpoint, _) = error else {
            Issue.record("expected connectionFailed, got \(error)")
            return
        }
        #expect(endpoint == "127.0.0.1:\(server.port)")
        #expect(error.isTransient)
    }

    @Test("A closed connection refuses further commands")
    func closed() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let redis = try RedisTestKit.connect(server)
        redis.close()
        #expect(throws: RedisError.closed) { try redis.command(["PING"]) }
    }
}
