import DarkroomQueue
import DarkroomQueueContract
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomRedis

/// The Redis driver when Redis forgets things or goes away: flushed scripts, deleted groups,
/// restarts, an unreachable server.
@Suite("RedisStreamsQueue resilience", .realTime)
struct RedisStreamsQueueResilienceRealTimeTests {
    typealias Kit = StreamsTestKit

    @Test("After SCRIPT FLUSH every operation reloads its script (NOSCRIPT) and works, the pipelined enqueue included")
    func scriptFlush() async throws {
        let (server, client, queue) = try Kit.isolated()
        defer {
            client.close()
            server.stop()
        }
        _ = try await queue.enqueue([Kit.job("a")])
        let first = try #require(try await queue.reserve(consumer: "w1", max: 1, wait: .zero).first)
        try await client.command(["SCRIPT", "FLUSH"])
        #expect(try await queue.enqueue((0..<1_500).map { Kit.job("f\($0)") }) == 1_500)
        try await client.command(["SCRIPT", "FLUSH"])
        #expect(try await queue.acknowledge(first, outcome: .succeeded(QueueContractKit.result)))
        try await client.command(["SCRIPT", "FLUSH"])
        #expect(try await queue.reserve(consumer: "w1", max: 10, wait: .zero).count == 10)
        try await client.command(["SCRIPT", "FLUSH"])
        #expect(try await queue.counts().pending == 10)
    }

    @Test("When the streams and their groups are deleted under it, the driver recreates the groups and carries on")
    func groupsRecreated() async throws {
        let (server, client, queue) = try Kit.isolated()
        defer {
            client.close()
            server.stop()
        }
        _ = try await queue.enqueue([Kit.job("a")])
        try await client.command(["FLUSHALL"])
        #expect(try await queue.reserve(consumer: "w1", max: 1, wait: .zero).isEmpty)
        #expect(try await queue.counts().readyTotal == 0)
        #expect(try await queue.enqueue([Kit.job("b")]) == 1)
        #expect(try await queue.reserve(consumer: "w1", max: 1, wait: .zero).map(\.job.id.rawValue) == ["b"])
    }

    @Test("Given AOF persistence, a Redis restart loses neither queued nor pending jobs, and the pending one is reclaimed after it")
    func restartKeepsJobs() async throws {
        let (server, client, queue) = try Kit.isolated(appendOnly: true)
        defer {
            client.close()
            server.stop()
        }
        _ = try await queue.enqueue([Kit.job("a"), Kit.job("b"), Kit.job("c", notBefore: Timestamp.now().adding(.seconds(3600)))])
        let taken = try #require(try await queue.reserve(consumer: "dies", max: 1, wait: .zero).first)
        server.stop()
        await #expect(throws: JobQueueError.self) { try await queue.counts() }
        try server.start()
        let counts = try await queue.counts()
        #expect(counts.pending == 1 && counts.ready[.normal] == 1 && counts.delayed == 1)
        try await Task.sleep(for: Kit.visibilityTimeout * 2)
        let reclaimed = try await queue.reclaimStale(consumer: "w2", max: 10).deliveries
        #expect(reclaimed.map(\.job.id) == [taken.job.id])
        let rest = try await queue.reserve(consumer: "w2", max: 10, wait: .zero)
        #expect(rest.map(\.job.id.rawValue) == ["b"])
        for delivery in reclaimed + rest { #expect(try await queue.acknowledge(delivery, outcome: .succeeded(QueueContractKit.result))) }
        #expect(try await queue.batchProgress("b1") == BatchProgress(total: 3, succeeded: 2))
        #expect(try await queue.counts().delayed == 1)
    }

    @Test("An unreachable Redis surfaces as JobQueueError.unavailable with Redis's message")
    func unreachable() async throws {
        let server = try RedisTestServer()
        let url = try RedisURL(server.url)
        server.stop()
        let client = RedisClient(url: url, options: RedisConnectionOptions(connectTimeout: .milliseconds(500), reconnectAttempts: 1))
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client)
        do {
            _ = try await queue.enqueue([Kit.job("a")])
            Issue.record("enqueue succeeded without Redis")
        } catch let error as JobQueueError {
            #expect(error.code == .unavailable)
            #expect(error.message.contains("cannot connect to Redis"))
        }
    }
}
