import DarkroomQueue
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Logging
import Testing

@testable import DarkroomWebhooks

/// The notifier's sender wakes when its ingest adds a delivery, not at its next idle poll.
@Suite("The webhook sender wakes when a delivery is added", .realTime, .serialized)
struct SenderWakeupTests {
    @Test("A wake during a sleep ends it at once")
    func wakeEndsSleep() async {
        let wakeup = SenderWakeup()
        let start = ContinuousClock.now
        async let slept: Void = wakeup.sleep(for: .seconds(30))
        try? await Task.sleep(for: .milliseconds(50))
        wakeup.wake()
        await slept
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test("A wake while not sleeping makes the next sleep return at once, and only that one")
    func wakeBeforeSleep() async {
        let wakeup = SenderWakeup()
        wakeup.wake()
        let start = ContinuousClock.now
        await wakeup.sleep(for: .seconds(30))
        #expect(ContinuousClock.now - start < .seconds(5))
        let again = ContinuousClock.now
        await wakeup.sleep(for: .milliseconds(200))
        #expect(ContinuousClock.now - again >= .milliseconds(190))
    }

    @Test("A cancelled task's sleep ends at once")
    func cancellationEndsSleep() async {
        let wakeup = SenderWakeup()
        let start = ContinuousClock.now
        let sleeper = Task { await wakeup.sleep(for: .seconds(30)) }
        try? await Task.sleep(for: .milliseconds(50))
        sleeper.cancel()
        await sleeper.value
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test("Given a notifier whose idle poll is 30 s, when a subscribed job succeeds, then the receiver has it within seconds")
    func deliveryDoesNotWaitForThePoll() async throws {
        let fixture = try WebhookFixture()
        let created = try await fixture.endpoints.create(name: "app", url: fixture.receiver.url, allowPrivateNetwork: true)
        try fixture.receiver.use(secret: created.secret)
        var configuration = WebhookNotifier.Configuration(name: "n1")
        configuration.pollWait = .milliseconds(200)
        configuration.idlePoll = .seconds(30)
        let notifier = WebhookNotifier(
            queue: fixture.queue, client: fixture.client, keyPrefix: fixture.prefix, outbox: fixture.outbox(),
            configuration: configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let running = Task { try await notifier.run() }
        defer { running.cancel() }
        // Let the sender find the outbox empty and begin its 30 s idle sleep.
        try await Task.sleep(for: .milliseconds(500))
        let start = ContinuousClock.now
        try await fixture.runJobs(["w1"], webhook: "app")
        let records = try await fixture.receiver.wait(seconds: 10) { $0.count >= 1 }
        let elapsed = ContinuousClock.now - start
        notifier.shutdownGracefully()
        running.cancel()
        try? await running.value
        #expect(records.count == 1)
        #expect(elapsed < .seconds(5))
    }
}
