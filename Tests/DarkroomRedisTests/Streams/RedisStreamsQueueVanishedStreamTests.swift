import DarkroomQueue
import DarkroomQueueContract
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomRedis

/// A stream or its consumer group deleted under the driver (`DEL`, `FLUSHALL`): the driver must
/// neither crash a worker nor leave a batch's counters out of step with its events.
@Suite("RedisStreamsQueue when a stream or its group vanishes")
struct RedisStreamsQueueVanishedStreamTests {
    typealias Kit = StreamsTestKit

    @Test("Given one entry's stream was deleted, a group commit still finishes and counts the other entries it published events for")
    func groupCommitSurvivesADeletedStream() async throws {
        let (server, client, queue) = try Kit.isolated()
        defer {
            client.close()
            server.stop()
        }
        _ = try await queue.enqueue([Kit.job("kept"), Kit.job("gone", priority: .low)])
        let taken = try await queue.reserve(consumer: "w1", max: 2, wait: .zero)
        let kept = try #require(taken.first { $0.job.id.rawValue == "kept" })
        let gone = try #require(taken.first { $0.job.id.rawValue == "gone" })
        try await client.command(["DEL", queue.keys.stream(.low)])

        let answers = try await queue.acknowledge([
            (kept, .succeeded(QueueContractKit.result)),
            (gone, .succeeded(QueueContractKit.result)),
        ])

        #expect(answers == [true, false])
        let succeeded = try await QueueContractKit.allEvents(queue).filter { $0.type == .succeeded }
        #expect(succeeded.compactMap(\.job?.rawValue) == ["kept"])
        // The batch record counts exactly the terminal events that were published.
        #expect(try await queue.batchProgress("b1")?.succeeded == succeeded.count)
    }

    @Test("Given the low stream deleted, reserve still hands out the high job it read, and recreates the group for later")
    func reserveSurvivesAMissingGroup() async throws {
        let (server, client, queue) = try Kit.isolated()
        defer {
            client.close()
            server.stop()
        }
        _ = try await queue.enqueue([Kit.job("urgent", priority: .high)])
        try await client.command(["DEL", queue.keys.stream(.low)])
        let first = try await queue.reserve(consumer: "w1", max: 5, wait: .zero)
        #expect(first.map(\.job.id.rawValue) == ["urgent"])
        #expect(try await queue.acknowledge(try #require(first.first), outcome: .succeeded(QueueContractKit.result)))
        _ = try await queue.enqueue([Kit.job("later", priority: .low)])
        #expect(try await queue.reserve(consumer: "w1", max: 5, wait: .zero).map(\.job.id.rawValue) == ["later"])
    }
}
