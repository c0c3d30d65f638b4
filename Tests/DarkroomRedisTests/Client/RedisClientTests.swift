import DarkroomTestSupport
import Testing

@testable import DarkroomRedis

@Suite("Redis async client")
struct RedisClientTests {
    @Test("50 concurrent tasks share a small connection pool and every INCR counts once")
    func fiftyTasks() async throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let client = RedisClient(url: try RedisURL(server.url), options: RedisTestKit.quickOptions, connections: 6)
        defer { client.close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<50 {
                group.addTask {
                    for step in 0..<20 {
                        try await client.command(["INCR", "counter"])
                        try await client.command(["SET", "task:\(task)", "\(step)"])
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await client.command(["GET", "counter"]).integer == 1000)
        #expect(try await client.command(["GET", "task:49"]).string == "19")
        #expect(client.connectionsCreated <= 6)
    }

    @Test("Blocking reads on dedicated connections do not hold up ordinary commands")
    func dedicatedDoesNotBlockCommands() async throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let client = RedisClient(
            url: try RedisURL(server.url), options: RedisTestKit.quickOptions,
            connections: 2, dedicatedConnections: 2)
        defer { client.close() }
        let readers = (0..<2).map { index in
            Task {
                try await client.withDedicatedConnection { connection throws(RedisError) in
                    try connection.command(["BLPOP", "queue:\(index)", "10"], timeout: .seconds(15))
                }
            }
        }
        // While both dedicated threads are blocked, the command pool still answers.
        for index in 0..<20 { try await client.command(["SET", "k\(index)", "v"]) }
        _ = try await client.pipeline([["RPUSH", "queue:0", "a"], ["RPUSH", "queue:1", "b"]])
        let first = try await readers[0].value
        let second = try await readers[1].value
        #expect(first.array?.last?.string == "a")
        #expect(second.array?.last?.string == "b")
    }

    @Test("Server errors reach the awaiting task as typed errors")
    func typedErrors() async throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let client = RedisClient(url: try RedisURL(server.url), options: RedisTestKit.quickOptions, connections: 2)
        defer { client.close() }
        try await client.command(["SET", "s", "x"])
        await #expect(throws: RedisError.self) { try await client.command(["INCR", "s"]) }
        let script = RedisScript("return ARGV[1] .. KEYS[1]")
        #expect(try await client.evalsha(script, keys: ["k"], arguments: ["a"]).string == "ak")
        client.close()
        await #expect(throws: RedisError.closed) { try await client.command(["PING"]) }
    }
}
