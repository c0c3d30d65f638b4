import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomWebhooks

/// Two coordinators' notifiers on one Redis: one sends at a time (the lease), and when it stops
/// the other continues from the outbox and the checkpoint in Redis.
@Suite("Webhook notifier fail-over between two coordinators", .realTime, .serialized)
struct WebhookFailoverRealTimeTests {
    @Test("Given two notifiers, when the leader stops, then the other delivers what comes next")
    func failover() async throws {
        let fixture = try WebhookFixture()
        let created = try await fixture.endpoints.create(name: "app", url: fixture.receiver.url, allowPrivateNetwork: true)
        try fixture.receiver.use(secret: created.secret)
        let outbox = fixture.outbox()
        let first = fixture.notifier(outbox, name: "c1")
        let second = fixture.notifier(outbox, name: "c2")
        let firstRun = Task { try await first.run() }
        try await Task.sleep(for: .milliseconds(300))
        let secondRun = Task { try await second.run() }

        try await fixture.runJobs(["f1"], webhook: "app")
        _ = try await fixture.receiver.wait { $0.count >= 1 }
        #expect(first.isLeading)
        #expect(!second.isLeading)

        first.shutdownGracefully()
        try await firstRun.value
        try await fixture.runJobs(["f2", "f3"], webhook: "app")
        let records = try await fixture.receiver.wait { records in
            Set(records.compactMap { ($0["body"] as? [String: Any])?["event"] as? [String: Any] }.compactMap { $0["job"] as? String })
                == ["f1", "f2", "f3"]
        }
        #expect(second.isLeading)
        second.shutdownGracefully()
        try await secondRun.value
        let jobs = records.compactMap { ($0["body"] as? [String: Any])?["event"] as? [String: Any] }.compactMap { $0["job"] as? String }
        #expect(Set(jobs) == ["f1", "f2", "f3"])
        #expect(records.allSatisfy { $0["verified"] as? Bool == true })
    }
}

/// A slow receiver holds one sending slot, never the others.
@Suite("A slow webhook receiver does not hold up other deliveries", .realTime, .serialized)
struct WebhookSlowReceiverRealTimeTests {
    @Test("Given a slow endpoint and a fast one, when both have deliveries, then the fast one's arrive first")
    func slowReceiver() async throws {
        let fixture = try WebhookFixture()
        _ = try await fixture.endpoints.create(name: "slow", url: fixture.receiver.url + "/slow", allowPrivateNetwork: true)
        _ = try await fixture.endpoints.create(name: "fast", url: fixture.receiver.url + "/fast", allowPrivateNetwork: true)
        let records = try await fixture.withNotifier(fixture.outbox()) {
            try await fixture.runJobs(["s1"], webhook: "slow", batch: "bs")
            try await Task.sleep(for: .milliseconds(300))
            try await fixture.runJobs(["q1", "q2"], webhook: "fast", batch: "bq")
            return try await fixture.receiver.wait { $0.count >= 3 }
        }
        let paths = records.compactMap { $0["path"] as? String }
        #expect(paths == ["/fast", "/fast", "/slow"])
    }
}
