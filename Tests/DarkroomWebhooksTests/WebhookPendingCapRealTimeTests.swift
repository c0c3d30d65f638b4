import DarkroomQueue
import DarkroomSystem
import DarkroomTestSupport
import Testing

@testable import DarkroomWebhooks

/// The caps on pending deliveries per API key and in total, on a real Redis: past one, the
/// oldest deliveries it holds fail with a reason, are counted, and are listed as failed.
@Suite("Webhook pending caps per API key and in total", .realTime, .serialized)
struct WebhookPendingCapRealTimeTests {
    /// Adds one delivery per `(id, owner)`, a millisecond apart, in order.
    private func add(_ outbox: RedisWebhookOutbox, _ deliveries: [(String, String?)], endpoint: String = "app") async throws {
        for (index, (id, owner)) in deliveries.enumerated() {
            let time = Timestamp(millisecondsSince1970: 1_000 + Int64(index))
            try await outbox.add(
                WebhookDelivery(
                    id: id, endpoint: endpoint, event: "job.succeeded", orderKey: "job:\(id)", createdAt: time, body: "{}", owner: owner),
                now: time)
        }
    }

    @Test("Past the per-key cap a key's oldest pending deliveries fail; other keys' and keyless work stay pending")
    func perKeyCap() async throws {
        let fixture = try WebhookFixture()
        let drops = Locked<[WebhookPendingCap: Int]>([:])
        let outbox = fixture.outbox(maxPendingPerKey: 2) { cap, count in drops.withLock { $0[cap, default: 0] += count } }
        try await add(outbox, [("a1", "dk_a"), ("b1", "dk_b"), ("a2", "dk_a"), ("n1", nil), ("a3", "dk_a"), ("a4", "dk_a")])
        #expect(try await outbox.list(failed: false).map(\.id) == ["b1", "n1", "a3", "a4"])
        let failed = try await outbox.list(failed: true)
        #expect(Set(failed.map(\.id)) == ["a1", "a2"])
        #expect(failed.allSatisfy { $0.state == .failed && $0.lastError == "dropped: over the pending-delivery cap of API key dk_a (2)" })
        #expect(try await outbox.droppedCounts() == [.key: 2])
        #expect(try await outbox.droppedCount() == 2)
        #expect(drops.withLock { $0 } == [.key: 2])
    }

    @Test("Work enqueued without an API key shares one per-key bucket")
    func keylessBucket() async throws {
        let fixture = try WebhookFixture()
        let outbox = fixture.outbox(maxPendingPerKey: 2)
        try await add(outbox, [("n1", nil), ("n2", nil), ("k1", "dk_k"), ("n3", nil)])
        #expect(try await outbox.list(failed: false).map(\.id) == ["n2", "k1", "n3"])
        let failed = try await outbox.list(failed: true)
        #expect(failed.map(\.id) == ["n1"])
        #expect(failed.first?.lastError == "dropped: over the pending-delivery cap of work enqueued without an API key (2)")
    }

    @Test("Past the total cap the oldest pending deliveries of all fail, whoever's they are")
    func totalCap() async throws {
        let fixture = try WebhookFixture()
        let drops = Locked<[WebhookPendingCap: Int]>([:])
        let outbox = fixture.outbox(maxPending: 3) { cap, count in drops.withLock { $0[cap, default: 0] += count } }
        try await add(outbox, [("a1", "dk_a"), ("b1", "dk_b"), ("n1", nil), ("c1", "dk_c"), ("c2", "dk_c")])
        #expect(try await outbox.list(failed: false).map(\.id) == ["n1", "c1", "c2"])
        let failed = try await outbox.list(failed: true)
        #expect(Set(failed.map(\.id)) == ["a1", "b1"])
        #expect(failed.allSatisfy { $0.lastError == "dropped: over the pending-delivery cap in total (3)" })
        #expect(try await outbox.droppedCounts() == [.total: 2])
        #expect(drops.withLock { $0 } == [.total: 2])
    }

    @Test("A delivered or failed delivery leaves its key's count, so the cap counts only pending ones")
    func finishedLeaveTheCap() async throws {
        let fixture = try WebhookFixture()
        let outbox = fixture.outbox(maxPendingPerKey: 2)
        try await add(outbox, [("a1", "dk_a"), ("a2", "dk_a")])
        try await outbox.markDelivered("a1")
        try await outbox.markFailed("a2", error: "gone")
        try await add(outbox, [("a3", "dk_a"), ("a4", "dk_a")])
        #expect(try await outbox.list(failed: false).map(\.id) == ["a3", "a4"])
        #expect(try await outbox.droppedCount() == 0)
        // A redelivery counts against its key again.
        try await outbox.redeliver("a2")
        #expect(try await fixture.client.command(["ZCARD", fixture.prefix + ":webhooks:pending-key:dk_a"]).integer == 3)
    }

    @Test("The notifier attributes a job's delivery to the key that submitted it, and a job without one to no key")
    func notifierAttributesOwners() async throws {
        let fixture = try WebhookFixture()
        let created = try await fixture.endpoints.create(name: "app", url: fixture.receiver.url, allowPrivateNetwork: true)
        try fixture.receiver.use(secret: created.secret)
        let owners = FixedOwners(jobs: ["o1": "dk_owner"])
        _ = try await fixture.withNotifier(fixture.outbox(), owners: owners) {
            try await fixture.runJobs(["o1", "o2"], webhook: "app")
            return try await fixture.receiver.wait { $0.count >= 2 }
        }
        var owned: [String: String] = [:]
        for id in try await fixture.client.command(["KEYS", fixture.prefix + ":webhooks:d:*"]).array?.compactMap(\.string) ?? [] {
            let fields = try await fixture.client.command(["HMGET", id, "orderKey", "owner"]).array?.map(\.string) ?? []
            if fields.count == 2, let order = fields[0], let owner = fields[1] { owned[order] = owner }
        }
        #expect(owned == ["job:o1": "dk_owner", "job:o2": WebhookPendingCap.noOwner])
    }
}

/// Ownership as the job API would record it, fixed for a test.
private struct FixedOwners: WebhookOwnerLookup {
    var jobs: [String: String] = [:]
    var batches: [String: String] = [:]

    func owners(ofJobs ids: [String]) async throws -> [String?] { ids.map { jobs[$0] } }
    func owner(ofBatch name: String) async throws -> String? { batches[name] }
}
