import DarkroomTestSupport
import Testing

@testable import DarkroomRedis

@Suite("Redis connection: pipelines and scripts")
struct RedisPipelineAndScriptTests {
    @Test("10,000 pipelined SETs all succeed and read back in order with pipelined GETs")
    func pipelineTenThousand() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let redis = try RedisTestKit.connect(server)
        let count = 10_000
        let sets = (0..<count).map { ["SET", "key:\($0)", "value-\($0)"] }
        let replies = try redis.pipeline(sets)
        #expect(replies.count == count)
        #expect(replies.allSatisfy { $0 == .status("OK") })
        #expect(try redis.command(["DBSIZE"]) == .integer(Int64(count)))
        let values = try redis.pipeline((0..<count).map { ["GET", "key:\($0)"] })
        #expect(values.map { $0.string ?? "" } == (0..<count).map { "value-\($0)" })
        #expect(redis.connectCount == 1)
    }

    @Test("Pipelines longer than one chunk keep reply order across chunks")
    func pipelineChunks() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        var options = RedisTestKit.quickOptions
        options.pipelineChunk = 7
        let redis = try RedisTestKit.connect(server, options: options)
        let replies = try redis.pipeline((1...50).map { _ in ["INCR", "counter"] })
        #expect(replies == (1...50).map { .integer(Int64($0)) })
    }

    @Test("An error inside a pipeline is returned in its place without hiding the other replies")
    func pipelineError() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let redis = try RedisTestKit.connect(server)
        let replies = try redis.pipeline([["SET", "s", "text"], ["INCR", "s"], ["GET", "s"]])
        #expect(replies.count == 3)
        #expect(replies[0] == .status("OK"))
        guard case .error(let message) = replies[1] else {
            Issue.record("expected an error reply, got \(replies[1])")
            return
        }
        #expect(message.contains("not an integer"))
        #expect(replies[2].string == "text")
        #expect(throws: RedisError.self) { try replies[1].throwingOnError() }
    }

    @Test("EVALSHA loads the script on first use and remembers the sha Redis returned")
    func evalshaLoads() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let redis = try RedisTestKit.connect(server)
        let script = RedisScript("return redis.call('INCRBY', KEYS[1], ARGV[1])")
        #expect(script.sha == nil)
        #expect(try redis.evalsha(script, keys: ["n"], arguments: ["5"]) == .integer(5))
        let sha = try #require(script.sha)
        #expect(sha.count == 40)
        #expect(try redis.command(["SCRIPT", "EXISTS", sha]) == .array([.integer(1)]))
        #expect(try redis.evalsha(script, keys: ["n"], arguments: ["2"]) == .integer(7))
    }

    @Test("After SCRIPT FLUSH, EVALSHA gets NOSCRIPT, reloads the script and succeeds")
    func evalshaAfterFlush() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let redis = try RedisTestKit.connect(server)
        let script = RedisScript("return {KEYS[1], ARGV[1], redis.call('INCR', KEYS[1])}")
        _ = try redis.evalsha(script, keys: ["c"], arguments: ["x"])
        try redis.command(["SCRIPT", "FLUSH"])
        let sha = try #require(script.sha)
        #expect(try redis.command(["SCRIPT", "EXISTS", sha]) == .array([.integer(0)]))
        let reply = try redis.evalsha(script, keys: ["c"], arguments: ["y"])
        #expect(reply == .array([.bulk(Array("c".utf8)), .bulk(Array("y".utf8)), .integer(2)]))
        #expect(try redis.command(["SCRIPT", "EXISTS", sha]) == .array([.integer(1)]))
    }

    @Test("A script that raises an error throws a server error and does not loop")
    func scriptError() throws {
        let server = try RedisTestServer()
        defer { server.stop() }
        let redis = try RedisTestKit.connect(server)
        let script = RedisScript("return redis.error_reply('BADJOB the job is garbage')")
        let error = try #require(throws: RedisError.self) { try redis.evalsha(script, keys: []) }
        #expect(error.serverCode == "BADJOB")
    }
}
