@testable import DarkroomRedis
import DarkroomQueue
import DarkroomQueueContract
import DarkroomTestSupport
import Foundation
import Synchronization
import Testing

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

    static let options = RedisConnectionOptions(connectTimeout: .seconds(3), commandTimeout: .seconds(20),
                                                reconnectAttempts: 5, initialBackoff: .milliseconds(20),
                                                maximumBackoff: .milliseconds(300))

    static func client(_ server: RedisTestServer) throws -> RedisClient {
        RedisClient(url: try RedisURL(server.url), options: options, connections: 4, dedicatedConnections: 4)
    }

    /// The contract harness: real time, the shared server, a fresh prefix.
    static let factory: QueueContractFactory = { configuration in
        let server = try sharedServer.get()
        let client = try client(server)
        var settings = configuration
        settings.visibilityTimeout = visibilityTimeout
        let queue = RedisStreamsQueue(client: client, configuration: settings, keyPrefix: prefix())
        return QueueContractHarness(driver: queue, advance: { try await Task.sleep(for: $0) }, now: { Timestamp.now() },
                                    injectRaw: { payload, priority in try await queue.enqueueRaw(payload, priority: priority) },
                                    finish: { client.close() })
    }

    /// A queue on its own fresh server (for tests that flush scripts or restart Redis).
    static func isolated(appendOnly: Bool = false,
                         configuration: JobQueueConfiguration = JobQueueConfiguration(visibilityTimeout: visibilityTimeout))
        throws -> (RedisTestServer, RedisClient, RedisStreamsQueue) {
        let server = try RedisTestServer(appendOnly: appendOnly)
        let client = try client(server)
        return (server, client, RedisStreamsQueue(client: client, configuration: configuration, keyPrefix: "iso"))
    }

    static func job(_ name: String, batch: String = "b1", priority: JobPriority = .normal, notBefore: Timestamp? = nil) -> Job {
        QueueContractKit.job(name, batch: batch, priority: priority, notBefore: notBefore, at: .now())
    }
}
