import DarkroomQueue
import DarkroomTestSupport
import Testing

@testable import DarkroomWebhooks

/// The sender's finish-and-claim: one script call records a delivery delivered and claims the
/// next due ones, keeping per-job order.
@Suite("Webhook outbox: deliver and claim in one call", .realTime, .serialized)
struct WebhookDeliverAndClaimRealTimeTests {
    @Test("Delivering a job's first notification claims its second with the other due ones, never before")
    func deliverClaimsNext() async throws {
        let fixture = try WebhookFixture()
        let outbox = fixture.outbox()
        let now = Timestamp(millisecondsSince1970: 10_000)
        for (id, order) in [("a1", "job:a"), ("a2", "job:a"), ("b1", "job:b")] {
            try await outbox.add(
                WebhookDelivery(id: id, endpoint: "app", event: "job.succeeded", orderKey: order, createdAt: now, body: "{}"),
                now: now)
        }
        let first = try await outbox.claimDue(max: 1, now: now)
        #expect(first.map(\.id) == ["a1"])
        // a2 waits behind a1: only b1 is due until a1 is delivered.
        #expect(try await outbox.claimDue(max: 0, now: now).isEmpty)
        let next = try await outbox.markDelivered("a1", claimingUpTo: 5, now: now)
        #expect(Set(next.map(\.id)) == ["a2", "b1"])
        #expect(next.allSatisfy { $0.attempt == 1 && $0.body == "{}" })
        // Claimed: not due again until the claim lapses.
        #expect(try await outbox.claimDue(max: 5, now: now).isEmpty)
        #expect(try await outbox.markDelivered("a2", claimingUpTo: 0, now: now).isEmpty)
        #expect(try await outbox.list(failed: false).map(\.id) == ["b1"])
    }
}
