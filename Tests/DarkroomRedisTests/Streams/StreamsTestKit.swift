import DarkroomQueue
import DarkroomQueueContract
import DarkroomTestSupport
import Foundation
import Synchronization
import Testing

@testable import DarkroomRedis

/// Helpers for the Redis Streams driver tests (namespaced to avoid clashing with other helpers).
enum StreamsTestKit {
    /// The visibility timeout of the contract run: the suite sleeps for real in multiples of it,
    /// so it is short, but long enough that a Redis call on a loaded 2-core machine (tens of
    /// milliseconds) stays well inside the margins the suite leaves (0.4 of it at the tightest).
    static let visibilityTimeout: Duration = .milliseconds(500)

    /// One server for the contract suite; each harness gets its own key prefix, so tests running in
    /// parallel never see each other's keys. Failing to start is a test failure, never a skip.
    static let sharedServer = Result { try RedisTestServer() }

    private static let counter = Atomic<Int>(0)

    /// A fresh, unique key prefix.
    static func prefix(_ label: String = "t") -> String {
        "\(label)\(counter.add(1, ordering: .relaxed).newValue)"
    }

    static let options = RedisConnectionOptions(
        connectTimeout: .seconds(3), commandTimeout: .seconds(20),
        reconnectAttempts: 5, initialBackoff: .milliseconds(20),
        maximumBackoff: .milliseconds(300))

    static func client(_ server: RedisTestServer) throws -> RedisClient {
        RedisClient(url: try RedisURL(server.url), options: options, connections: 4, dedicatedConnections: 4)
    }

    /// The contract harness for tests that wait on Redis's own time (visibility timeouts, stream
    /// ids, key expiry): it sleeps for real, on the shared server under a fresh prefix.
    /// Its tests' margins hold only in the serial pass: they must be marked `.realTime`.
    static let realTimeFactory: QueueContractFactory = { configuration in
        RealTime.require("The contract on Redis's own clock, with its margins")
        return try await realTimeFactory(visibilityTimeout: visibilityTimeout)(configuration)
    }

    /// A real-time harness with the given visibility timeout.
    static func realTimeFactory(visibilityTimeout: Duration) -> QueueContractFactory {
        { configuration in
            let server = try sharedServer.get()
            let client = try client(server)
            var settings = configuration
            settings.visibilityTimeout = visibilityTimeout
            let queue = RedisStreamsQueue(client: client, configuration: settings, keyPrefix: prefix())
            return QueueContractHarness(
                driver: queue, advance: { try await Task.sleep(for: $0) }, now: { Timestamp.now() },
                injectRaw: { payload, priority in try await queue.enqueueRaw(payload, priority: priority) },
                finish: { client.close() })
        }
    }

    /// The contract harness for tests whose waits are the caller's time only (delays, retry
    /// backoff): the driver reads a `ManualQueueClock` that `advance` moves, so nothing sleeps and
    /// the tests can run beside any others. Redis's own time (visibility timeouts, key expiry)
    /// does not follow it: tests that need a lease to go stale or a heartbeat record to expire
    /// use `realTimeFactory`.
    static let manualClockFactory: QueueContractFactory = { configuration in
        let server = try sharedServer.get()
        let client = try client(server)
        let clock = ManualQueueClock(start: .now())
        var settings = configuration
        settings.visibilityTimeout = visibilityTimeout
        let queue = RedisStreamsQueue(client: client, configuration: settings, keyPrefix: prefix(), clock: clock)
        return QueueContractHarness(
            driver: queue, advance: { clock.advance(by: $0) }, now: { clock.now() },
            injectRaw: { payload, priority in try await queue.enqueueRaw(payload, priority: priority) },
            finish: { client.close() })
    }

    /// A queue on its own fresh server (for tests that flush scripts or restart Redis).
    static func isolated(
        appendOnly: Bool = false,
        configuration: JobQueueConfiguration = JobQueueConfiguration(visibilityTimeout: visibilityTimeout)
    )
        throws -> (RedisTestServer, RedisClient, RedisStreamsQueue)
    {
        let server = try RedisTestServer(appendOnly: appendOnly)
        let client = try client(server)
        return (server, client, RedisStreamsQueue(client: client, configuration: configuration, keyPrefix: "iso"))
    }

    static func job(_ name: String, batch: String = "b1", priority: JobPriority = .normal, notBefore: Timestamp? = nil) -> Job {
        QueueContractKit.job(name, batch: batch, priority: priority, notBefore: notBefore, at: .now())
    }
}
