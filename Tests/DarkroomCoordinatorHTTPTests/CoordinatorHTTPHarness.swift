import DarkroomCoordinator
import DarkroomCoordinatorHTTP
import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Foundation
import Logging
import ServiceLifecycle

/// A coordinator with its HTTP server on a free loopback port, over a real redis-server, run as a
/// ServiceGroup in a task until `stop()`.
final class CoordinatorHTTPHarness: Sendable {
    let redis: RedisTestServer
    let client: RedisClient
    let queue: RedisStreamsQueue
    let metrics: CoordinatorMetrics
    let port: Int
    let directory: String
    private let task: Task<Void, any Error>

    static let token = "test-token-0123456789abcdef"

    /// - Parameter outputRoot: the dashboard preview's `--output-root`; `"work"` is replaced by
    ///   the harness's own scratch directory.
    init(
        token: String? = CoordinatorHTTPHarness.token, heartbeat: Duration = .seconds(15), clientBufferSize: Int = 1024,
        outputRoot: String? = nil
    ) async throws {
        redis = try RedisTestServer()
        client = RedisClient(url: try RedisURL(redis.url))
        queue = RedisStreamsQueue(client: client)
        metrics = CoordinatorMetrics()
        directory = NSTemporaryDirectory() + "darkroom-http-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let silent = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let coordinator = Coordinator(
            queue: queue, store: RedisCoordinatorStore(queue: queue),
            configuration: .init(eventLog: EventLogConfiguration(path: directory + "/events.jsonl", maxBytes: 1 << 30, keep: 2), pollWait: .milliseconds(100)),
            logger: silent, metrics: metrics)
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        var configuration = CoordinatorHTTPConfiguration(
            host: "127.0.0.1", port: 0, token: try token.map(AccessToken.init), heartbeat: heartbeat, clientBufferSize: clientBufferSize)
        configuration.outputRoot = outputRoot == "work" ? directory : outputRoot
        let server = try CoordinatorHTTPServer(
            configuration: configuration, queue: queue, metrics: metrics, logger: silent, onListening: { portSink.yield($0) })
        let group = ServiceGroup(
            services: [coordinator, server, QueueGaugePoller(queue: queue, metrics: metrics, interval: .milliseconds(200), logger: silent)], logger: silent)
        task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw HTTPTestClient.Failure(description: "the server did not start") }
        self.port = port
    }

    var http: HTTPTestClient { HTTPTestClient(port: port) }
    var bearer: [(String, String)] { [("Authorization", "Bearer \(Self.token)")] }

    /// Waits until the coordinator has folded at least `count` events.
    func waitForEvents(_ count: Int, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while metrics.snapshot().eventsProcessed < count {
            guard ContinuousClock.now < deadline else {
                throw HTTPTestClient.Failure(description: "the coordinator folded \(metrics.snapshot().eventsProcessed) of \(count) events")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    func stop() async {
        task.cancel()
        _ = await task.result
        client.close()
        redis.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
