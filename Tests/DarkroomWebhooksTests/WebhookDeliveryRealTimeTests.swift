import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomWebhooks

/// Deliveries to a real receiver process (scripts/webhook-receiver.py) from a notifier on a real
/// Redis: signed, at least once across a receiver killed mid-batch, in order per job, under the
/// address guard, never through a redirect, and failed deliveries listed and redelivered.
@Suite("Webhook deliveries reach a real receiver signed, at least once and in order", .realTime, .serialized)
struct WebhookDeliveryRealTimeTests {
    @Test("Given an endpoint a job names, when the job succeeds, then the receiver gets its signed event")
    func succeededJobIsDelivered() async throws {
        let fixture = try WebhookFixture()
        let created = try await fixture.endpoints.create(name: "app", url: fixture.receiver.url + "/hooks", allowPrivateNetwork: true)
        try fixture.receiver.use(secret: created.secret)
        let records = try await fixture.withNotifier(fixture.outbox()) {
            try await fixture.runJobs(["j1"], webhook: "app")
            return try await fixture.receiver.wait { $0.count >= 1 }
        }
        try #require(records.count == 1)
        let record = records[0]
        #expect(record["verified"] as? Bool == true)
        #expect(record["event"] as? String == "job.succeeded")
        let body = try #require(record["body"] as? [String: Any])
        let event = try #require(body["event"] as? [String: Any])
        #expect(event["job"] as? String == "j1")
        #expect(body["type"] as? String == "job.succeeded")
        #expect(record["delivery"] as? String == event["id"] as? String)
        #expect(body["delivery"] as? String == event["id"] as? String)
    }

    @Test("A receiver killed and restarted mid-batch gets every delivery at least once, in order per job")
    func receiverRestart() async throws {
        let fixture = try WebhookFixture()
        let created = try await fixture.endpoints.create(name: "app", url: fixture.receiver.url, allowPrivateNetwork: true)
        try fixture.receiver.use(secret: created.secret)
        let outbox = fixture.outbox()
        var expected: [String] = []
        for sequence in 0..<3 {
            for job in 0..<10 {
                let id = "d-\(job)-\(sequence)"
                expected.append(id)
                try await outbox.add(
                    WebhookDelivery(
                        id: id, endpoint: "app", event: "job.succeeded", orderKey: "job:\(job)", createdAt: .now(),
                        body: #"{"job":"\#(job)","sequence":\#(sequence)}"#))
            }
        }
        let records = try await fixture.withNotifier(outbox) {
            _ = try await fixture.receiver.wait { $0.count >= 5 }
            fixture.receiver.stop()
            try await Task.sleep(for: .milliseconds(800))
            try fixture.receiver.start()
            return try await fixture.receiver.wait(seconds: 30) { records in
                Set(records.compactMap { $0["delivery"] as? String }).isSuperset(of: expected)
            }
        }
        let ids = records.compactMap { $0["delivery"] as? String }
        #expect(Set(ids) == Set(expected))
        #expect(records.allSatisfy { $0["verified"] as? Bool == true })
        // Per job, the first arrivals come in sequence order.
        for job in 0..<10 {
            var seen: [String] = []
            for id in ids where id.hasPrefix("d-\(job)-") && !seen.contains(id) { seen.append(id) }
            #expect(seen == (0..<3).map { "d-\(job)-\($0)" })
        }
    }

    @Test("A private address is refused unless allowed; the failed delivery is listed and redelivered")
    func privateAddressRefusedThenRedelivered() async throws {
        let fixture = try WebhookFixture()
        _ = try await fixture.endpoints.create(name: "app", url: fixture.receiver.url, allowPrivateNetwork: false)
        let outbox = fixture.outbox(retryWindow: .milliseconds(600))
        let failed = try await fixture.withNotifier(outbox) {
            try await fixture.runJobs(["p1"], webhook: "app")
            return try await fixture.failedDeliveries(outbox)
        }
        try #require(failed.count == 1)
        #expect(failed[0].lastError?.contains("refused at connect time") == true)
        #expect(fixture.receiver.received().isEmpty)

        #expect(try await fixture.endpoints.remove(name: "app"))
        let created = try await fixture.endpoints.create(name: "app", url: fixture.receiver.url, allowPrivateNetwork: true)
        try fixture.receiver.use(secret: created.secret)
        try await outbox.redeliver(failed[0].id)
        let records = try await fixture.withNotifier(outbox) { try await fixture.receiver.wait { $0.count >= 1 } }
        try #require(records.count == 1)
        #expect(records[0]["delivery"] as? String == failed[0].id)
        #expect(records[0]["verified"] as? Bool == true)
        #expect(try await outbox.list(failed: true).isEmpty)
    }

    @Test("A redirect is not followed: the 302 is a failed attempt")
    func redirectIsNotFollowed() async throws {
        let fixture = try WebhookFixture()
        _ = try await fixture.endpoints.create(name: "app", url: fixture.receiver.url + "/redirect", allowPrivateNetwork: true)
        let outbox = fixture.outbox(retryWindow: .milliseconds(600))
        let failed = try await fixture.withNotifier(outbox) {
            try await fixture.runJobs(["r1"], webhook: "app")
            return try await fixture.failedDeliveries(outbox)
        }
        try #require(failed.count == 1)
        #expect(failed[0].lastError?.contains("HTTP 302") == true)
        let paths = fixture.receiver.received().compactMap { $0["path"] as? String }
        #expect(!paths.isEmpty)
        #expect(paths.allSatisfy { $0 == "/redirect" })
    }

    @Test("Rotation: both secrets sign until the old one is retired")
    func rotation() async throws {
        let fixture = try WebhookFixture()
        let first = try await fixture.endpoints.create(name: "app", url: fixture.receiver.url, allowPrivateNetwork: true)
        let second = try await fixture.endpoints.rotate(name: "app")
        #expect(second.endpoint.liveSecrets == 2)
        #expect(try await fixture.endpoints.secrets(for: "app") == [first.secret, second.secret])
        await #expect(throws: WebhookError.self) { try await fixture.endpoints.rotate(name: "app") }
        try fixture.receiver.use(secret: first.secret)
        let records = try await fixture.withNotifier(fixture.outbox()) {
            try await fixture.runJobs(["k1"], webhook: "app")
            return try await fixture.receiver.wait { $0.count >= 1 }
        }
        #expect(records.first?["verified"] as? Bool == true)
        #expect(try await fixture.endpoints.retireOldSecret(name: "app").liveSecrets == 1)
        #expect(try await fixture.endpoints.secrets(for: "app") == [second.secret])
        #expect(try await fixture.endpoints.list().map(\.name) == ["app"])
    }
}
