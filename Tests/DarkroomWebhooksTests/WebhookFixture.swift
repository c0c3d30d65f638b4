import DarkroomQueue
import DarkroomRedis
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Logging

@testable import DarkroomWebhooks

/// A redis-server of the test's own, the queue and the webhook stores on it under a fresh prefix,
/// and a receiver process.
struct WebhookFixture {
    let server: RedisTestServer
    let client: RedisClient
    let prefix = "t" + String(UUID().uuidString.prefix(8)).lowercased()
    let queue: RedisStreamsQueue
    let endpoints: RedisWebhookEndpointStore
    let subscriptions: RedisWebhookSubscriptions
    let receiver: WebhookReceiver

    init() throws {
        server = try RedisTestServer()
        client = RedisClient(url: try RedisURL(server.url), connections: 4, dedicatedConnections: 4)
        queue = RedisStreamsQueue(client: client, keyPrefix: prefix)
        endpoints = RedisWebhookEndpointStore(client: client, keyPrefix: prefix)
        subscriptions = RedisWebhookSubscriptions(client: client, keyPrefix: prefix)
        receiver = try WebhookReceiver()
        try receiver.start()
    }

    /// An outbox that gives up after `retryWindow` (short, so failures are seen in a test).
    func outbox(
        retryWindow: Duration = .seconds(60), maxPendingPerEndpoint: Int = 10_000, maxPendingPerKey: Int = 10_000, maxPending: Int = 100_000,
        onDropped: @escaping @Sendable (WebhookPendingCap, Int) -> Void = { _, _ in }
    ) -> RedisWebhookOutbox {
        var policy = WebhookDeliveryPolicy()
        policy.maxPendingPerEndpoint = maxPendingPerEndpoint
        policy.maxPendingPerKey = maxPendingPerKey
        policy.maxPending = maxPending
        policy.retryWindow = retryWindow
        policy.claimTimeout = .seconds(5)
        return RedisWebhookOutbox(client: client, keyPrefix: prefix, policy: policy, onDropped: onDropped)
    }

    /// A notifier with fast retries and a short lease, named `name` (a coordinator).
    func notifier(_ outbox: RedisWebhookOutbox, name: String = "n1", owners: (any WebhookOwnerLookup)? = nil) -> WebhookNotifier {
        var configuration = WebhookNotifier.Configuration(name: name)
        configuration.backoff = Backoff(initial: .milliseconds(50), multiplier: 2, cap: .milliseconds(400), jitter: .equal)
        configuration.pollWait = .milliseconds(200)
        configuration.idlePoll = .milliseconds(20)
        configuration.totalTimeout = 3
        configuration.leaseTTL = .seconds(1)
        return WebhookNotifier(
            queue: queue, client: client, keyPrefix: prefix, outbox: outbox, configuration: configuration, owners: owners,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    /// A notifier running until `body` returns.
    func withNotifier<T>(
        _ outbox: RedisWebhookOutbox, owners: (any WebhookOwnerLookup)? = nil, _ body: () async throws -> T
    ) async throws -> T {
        let notifier = notifier(outbox, owners: owners)
        let running = Task { try await notifier.run() }
        do {
            let value = try await body()
            notifier.shutdownGracefully()
            try await running.value
            return value
        } catch {
            notifier.shutdownGracefully()
            try? await running.value
            throw error
        }
    }

    /// Subscribes, enqueues and runs `names` to success, as a worker would.
    func runJobs(_ names: [String], webhook: String, batch: String = "b1", notifyBatch: Bool = false) async throws {
        let now = Timestamp.now()
        let jobs = names.map {
            Job(id: JobID(rawValue: $0) ?? .make(), batch: batch, source: "/images/\($0).jpg", chain: "resize(10x10, mode: fit)", enqueuedAt: now)
        }
        try await subscriptions.subscribe(jobs.map(\.id), to: webhook)
        if notifyBatch { try await subscriptions.subscribe(batch: batch, to: webhook) }
        _ = try await queue.enqueue(jobs)
        var done = 0
        while done < jobs.count {
            for delivery in try await queue.reserve(consumer: "w1", max: jobs.count, wait: .milliseconds(200)) {
                let result = JobResult(output: nil, format: "webp", width: 10, height: 10, bytes: 100, cache: .miss)
                _ = try await queue.acknowledge(delivery, outcome: .succeeded(result))
                done += 1
            }
        }
    }

    /// The failed deliveries, once there are any (waiting up to 10 s).
    func failedDeliveries(_ outbox: RedisWebhookOutbox) async throws -> [WebhookDelivery] {
        for _ in 0..<100 {
            let failed = try await outbox.list(failed: true)
            if !failed.isEmpty { return failed }
            try await Task.sleep(for: .milliseconds(100))
        }
        return []
    }
}
