import DarkroomQueue
import DarkroomQueueContract
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomRedis

/// How long enqueued ids are remembered, so enqueueing one again is a no-op.
@Suite("RedisStreamsQueue idempotency window", .realTime)
struct RedisStreamsQueueIdempotencyWindowRealTimeTests {
    typealias Kit = StreamsTestKit

    @Test("A job delayed beyond the idempotency window is still known until it has had its window, and so is its batch")
    func longDelayKeepsTheIdempotencyMarker() async throws {
        let server = try RedisTestServer()
        let client = try Kit.client(server)
        defer {
            client.close()
            server.stop()
        }
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
