import DarkroomQueue
import DarkroomQueueContract
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomRedis

/// Data the driver did not write: odd entries in Redis and cursors or tags it did not make must be
/// handled, not crash a worker or be mistaken for Redis being down.
@Suite("RedisStreamsQueue given malformed data")
struct RedisStreamsQueueMalformedDataTests {
    typealias Kit = StreamsTestKit

    @Test("Given a delayed member with an absurd score, reserve neither crashes nor stalls the other jobs")
    func absurdDelayedScoreDoesNotCrash() async throws {
        let (server, client, queue) = try Kit.isolated()
        defer {
            client.close()
            server.stop()
        }
        try await queue.ensureGroups()
        try await client.command(["ZADD", queue.keys.delayed, "1e300", "normal|{}"])
        #expect(try await queue.reserve(consumer: "w1", max: 1, wait: .zero).isEmpty)
        _ = try await queue.enqueue([Kit.job("a")])
        #expect(try await queue.reserve(consumer: "w1", max: 1, wait: .milliseconds(200)).map(\.job.id.rawValue) == ["a"])
    }

    @Test("A cursor whose numbers do not fit a stream id is refused as invalid, not reported as Redis being unavailable")
    func outOfRangeCursorIsInvalid() async throws {
        let (server, client, queue) = try Kit.isolated()
        defer {
            client.close()
            server.stop()
        }
        do {
            _ = try await queue.readEvents(after: EventCursor(rawValue: "99999999999999999999-0"), limit: 10, wait: .zero)
            Issue.record("an out-of-range cursor was accepted")
        } catch let error as JobQueueError {
            #expect(error.code == .invalidCursor)
        }
        // A tag naming such an entry names no entry: answered false, like any foreign tag.
        var delivery = JobDelivery(
            tag: DeliveryTag(rawValue: "normal 99999999999999999999-0"), job: Kit.job("x"),
            consumer: "w1", deliveryCount: 1)
        #expect(try await queue.acknowledge(delivery, outcome: .succeeded(QueueContractKit.result)) == false)
        delivery.tag = DeliveryTag(rawValue: "normal 1-18446744073709551616")
        #expect(try await queue.extendLease(delivery) == false)
    }
}
