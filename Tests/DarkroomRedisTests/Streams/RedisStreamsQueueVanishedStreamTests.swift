@testable import DarkroomRedis
import DarkroomQueue
import DarkroomQueueContract
import DarkroomTestSupport
import Foundation
import Testing

/// Defects found in review of the Redis driver, each pinned by the test that showed it: odd data
/// in Redis must neither crash a worker nor leave a batch's counters out of step with its events.
@Suite("RedisStreamsQueue review regressions")
struct RedisStreamsQueueReviewTests {
    typealias Kit = StreamsTestKit

    @Test("Given one entry's stream was deleted, a group commit still finishes and counts the other entries it published events for")
    func groupCommitSurvivesADeletedStream() async throws {
        let (server, client, queue) = try Kit.isolated()
        defer { client.close(); server.stop() }
        _ = try await queue.enqueue([Kit.job("kept"), Kit.job("gone", priority: .low)])
        let taken = try await queue.reserve(consumer: "w1", max: 2, wait: .zero)
        let kept = try #require(taken.first { $0.job.id.rawValue == "kept" })
        let gone = try #require(taken.first { $0.job.id.rawValue == "gone" })
        try await client.command(["DEL", queue.keys.stream(.low)])

        let answers = try await queue.acknowledge([(kept, .succeeded(QueueContractKit.result)),
                                                   (gone, .succeeded(QueueContractKit.result))])

        #expect(answers == [true, false])
        let succeeded = try await QueueContractKit.allEvents(queue).filter { $0.type == .succeeded }
        #expect(succeeded.compactMap(\.job?.rawValue) == ["kept"])
        // The batch record counts exactly the terminal events that were published.
        #expect(try await queue.batchProgress("b1")?.succeeded == succeeded.count)
    }

    @Test("Given a delayed member with an absurd score, reserve neither crashes nor stalls the other jobs")
    func absurdDelayedScoreDoesNotCrash() async throws {
        let (server, client, queue) = try Kit.isolated()
        defer { client.close(); server.stop() }
        try await queue.ensureGroups()
        try await client.command(["ZADD", queue.keys.delayed, "1e300", "normal|{}"])
        #expect(try await queue.reserve(consumer: "w1", max: 1, wait: .zero).isEmpty)
        _ = try await queue.enqueue([Kit.job("a")])
        #expect(try await queue.reserve(consumer: "w1", max: 1, wait: .milliseconds(200)).map(\.job.id.rawValue) == ["a"])
    }

    @Test("A cursor whose numbers do not fit a stream id is refused as invalid, not reported as Redis being unavailable")
    func outOfRangeCursorIsInvalid() async throws {
        let (server, client, queue) = try Kit.isolated()
        defer { client.close(); server.stop() }
        do {
            _ = try await queue.readEvents(after: EventCursor(rawValue: "99999999999999999999-0"), limit: 10, wait: .zero)
            Issue.record("an out-of-range cursor was accepted")
        } catch let error as JobQueueError {
            #expect(error.code == .invalidCursor)
        }
        // A tag naming such an entry names no entry: answered false, like any foreign tag.
        var delivery = JobDelivery(tag: DeliveryTag(rawValue: "normal 99999999999999999999-0"), job: Kit.job("x"),
                                   consumer: "w1", deliveryCount: 1)
        #expect(try await queue.acknowledge(delivery, outcome: .succeeded(QueueContractKit.result)) == false)
        delivery.tag = DeliveryTag(rawValue: "normal 1-18446744073709551616")
        #expect(try await queue.extendLease(delivery) == false)
    }

    @Test("A job delayed beyond the idempotency window is still known until it has had its window, and so is its batch")
    func longDelayKeepsTheIdempotencyMarker() async throws {
        let server = try RedisTestServer()
        let client = try Kit.client(server)
        defer { client.close(); server.stop() }
        // One second: the shortest window the driver accepts.
        let queue = RedisStreamsQueue(client: client, keyPrefix: "long", idempotencyWindow: .seconds(1))
        let later = Timestamp.now().adding(.seconds(3600))
        #expect(try await queue.enqueue([Kit.job("far", notBefore: later), Kit.job("soon")]) == 2)
        try await Task.sleep(for: .milliseconds(1500))
        // The window alone has passed: "soon"'s marker is gone, "far"'s lives on for its delay.
        #expect(try await queue.enqueue([Kit.job("far", notBefore: later)]) == 0)
        #expect(try await queue.enqueue([Kit.job("soon")]) == 1)
        let ttl = try #require(try await client.command(["PTTL", "long:batch:b1"]).integer)
        #expect(ttl > 3_000_000)
    }
}

@Suite("RedisStreamsQueue when one stream's group vanishes")
struct RedisStreamsQueueMissingGroupTests {
    typealias Kit = StreamsTestKit

    @Test("Given the low stream deleted, reserve still hands out the high job it read, and recreates the group for later")
    func reserveSurvivesAMissingGroup() async throws {
        let (server, client, queue) = try Kit.isolated()
        defer { client.close(); server.stop() }
        _ = try await queue.enqueue([Kit.job("urgent", priority: .high)])
        try await client.command(["DEL", queue.keys.stream(.low)])
        let first = try await queue.reserve(consumer: "w1", max: 5, wait: .zero)
        #expect(first.map(\.job.id.rawValue) == ["urgent"])
        #expect(try await queue.acknowledge(try #require(first.first), outcome: .succeeded(QueueContractKit.result)))
        _ = try await queue.enqueue([Kit.job("later", priority: .low)])
        #expect(try await queue.reserve(consumer: "w1", max: 5, wait: .zero).map(\.job.id.rawValue) == ["later"])
    }
}
