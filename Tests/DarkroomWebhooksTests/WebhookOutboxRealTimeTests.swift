import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomWebhooks

/// The outbox's caps and the batch-end notices, on a real Redis and a real receiver.
@Suite("Webhook outbox caps and batch.ended notices", .realTime, .serialized)
struct WebhookOutboxRealTimeTests {
    @Test("Past the per-endpoint cap the oldest pending deliveries fail, counted as dropped")
    func capDropsOldest() async throws {
        let fixture = try WebhookFixture()
        let outbox = fixture.outbox(maxPendingPerEndpoint: 3)
        for index in 0..<5 {
            try await outbox.add(
                WebhookDelivery(
                    id: "d\(index)", endpoint: "app", event: "job.succeeded", orderKey: "job:\(index)",
                    createdAt: Timestamp(millisecondsSince1970: 1_000 + Int64(index)), body: "{}"),
                now: Timestamp(millisecondsSince1970: 1_000 + Int64(index)))
        }
        #expect(try await outbox.list(failed: false).map(\.id) == ["d2", "d3", "d4"])
        let failed = try await outbox.list(failed: true)
        #expect(Set(failed.map(\.id)) == ["d0", "d1"])
        #expect(failed.allSatisfy { $0.lastError?.contains("cap") == true && $0.state == .failed })
        #expect(try await outbox.droppedCount() == 2)
        // The same id again is not a second delivery.
        #expect(try await !outbox.add(WebhookDelivery(id: "d4", endpoint: "app", event: "job.succeeded", orderKey: "job:4", createdAt: .now())))
    }

    @Test("A subscribed batch is notified when it ends, and again with the next sequence when it reopens and ends")
    func batchEnded() async throws {
        let fixture = try WebhookFixture()
        let created = try await fixture.endpoints.create(name: "app", url: fixture.receiver.url, allowPrivateNetwork: true)
        try fixture.receiver.use(secret: created.secret)
        let records = try await fixture.withNotifier(fixture.outbox()) {
            try await fixture.runJobs(["a1", "a2", "a3"], webhook: "app", batch: "b2", notifyBatch: true)
            _ = try await fixture.receiver.wait { $0.contains { $0["event"] as? String == "batch.ended" } }
            try await fixture.runJobs(["a4"], webhook: "app", batch: "b2", notifyBatch: true)
            return try await fixture.receiver.wait { $0.filter { $0["event"] as? String == "batch.ended" }.count >= 2 }
        }
        let ends = records.filter { $0["event"] as? String == "batch.ended" }
        try #require(ends.count == 2)
        let first = try #require((ends[0]["body"] as? [String: Any])?["batch"] as? [String: Any])
        let second = try #require((ends[1]["body"] as? [String: Any])?["batch"] as? [String: Any])
        #expect(first["sequence"] as? Int == 1 && first["total"] as? Int == 3 && first["succeeded"] as? Int == 3)
        #expect(second["sequence"] as? Int == 2 && second["total"] as? Int == 4)
        #expect(ends[0]["delivery"] as? String == "batch:b2:1")
        #expect(ends.allSatisfy { $0["verified"] as? Bool == true })
        #expect(records.filter { $0["event"] as? String == "job.succeeded" }.count == 4)
    }
}
