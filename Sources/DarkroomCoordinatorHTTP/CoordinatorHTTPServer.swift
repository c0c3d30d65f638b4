import DarkroomClient
import DarkroomCoordinator
import DarkroomFleetStatus
import DarkroomHTTPAPI
import DarkroomQueue
import DarkroomSystem
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// The coordinator's HTTP server, a swift-service-lifecycle `Service` run next to the coordinator:
///
/// - `GET /metrics`: the metrics in Prometheus' text format (0.0.4);
/// - `GET /healthz` (no token): 200 or 503 with a `HealthReport` as JSON;
/// - `GET /status`: JSON from the status provider;
/// - `GET /history?minutes=N`: `FleetHistory`, the coordinator's per-minute series (the chart's history);
/// - `GET /events`: the event stream as Server-Sent Events (`ServerSentEvents`);
/// - `GET /`: the dashboard page (`DashboardPage`);
/// - under `/v1`, the job API's read and act routes (`ReadAndActRoutes`: a job, its output, a
///   batch and its jobs, dead letters; cancel, retry, purge), served by the job API's own
///   handlers as the dashboard session's key (`APIKey.dashboardSession`, `admin`), so the page
///   drills down and acts without a `darkroom api` process.
///
/// Every endpoint but `/healthz` needs the token when one is configured (`TokenAuthMiddleware`);
/// a state-changing request made with the session cookie needs this server's `Origin`
/// (`CrossSiteGuard`).
/// Graceful shutdown ends every `/events` stream, then the server stops.
public final class CoordinatorHTTPServer: Service, Sendable {
    /// Produces the body of `/status` (JSON).
    public typealias StatusProvider = @Sendable () async throws -> [UInt8]

    public let configuration: CoordinatorHTTPConfiguration
    private let queue: any JobQueueDriver
    private let metrics: CoordinatorMetrics
    private let status: StatusProvider
    private let health: any CoordinatorHealthSource
    private let logger: Logger
    private let onListening: @Sendable (Int) async -> Void
    private let broadcaster: EventBroadcaster
    /// Output files are read here for the preview, off the cooperative threads.
    private let pool = BlockingWorkPool(threadCount: 1)

    /// - Parameters:
    ///   - status: the `/status` body; by default `defaultStatus(queue:metrics:)`.
    ///   - health: the `/healthz` inputs; by default `QueueHealthSource(queue:metrics:)`.
    ///   - onListening: called with the bound port once the server listens (port 0 picks one).
    public init(
        configuration: CoordinatorHTTPConfiguration, queue: any JobQueueDriver, metrics: CoordinatorMetrics,
        status: StatusProvider? = nil, health: (any CoordinatorHealthSource)? = nil, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws(CoordinatorHTTPError) {
        try configuration.validate()
        self.configuration = configuration
        self.queue = queue
        self.metrics = metrics
        self.status = status ?? Self.defaultStatus(queue: queue, metrics: metrics)
        self.health = health ?? QueueHealthSource(queue: queue, metrics: metrics)
        self.logger = logger
        self.onListening = onListening
        broadcaster = EventBroadcaster(queue: queue, bufferSize: configuration.clientBufferSize, logger: logger)
    }

    /// `FleetStatus` — the object `darkroom status --json` prints — read from the queue (with the
    /// coordinator's projections when the queue keeps them) when the queue can say what it holds;
    /// otherwise the metrics' own snapshot (`CoordinatorMetrics.Snapshot`).
    public static func defaultStatus(queue: any JobQueueDriver, metrics: CoordinatorMetrics) -> StatusProvider {
        guard let fleet = queue as? any FleetStatusReader.Queue else {
            return { try RecordJSON.encoder().encode(metrics.snapshot()).map { $0 } }
        }
        let reader = FleetStatusReader(queue: fleet, store: (queue as? any CoordinatorStoreProviding)?.coordinatorStore)
        return { try RecordJSON.encoder().encode(try await reader.read()).map { $0 } }
    }

    public func run() async throws {
        let listening = ListeningFlag()
        let application = Application(
            router: makeRouter(),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "darkroom"),
            onServerRunning: { [onListening, logger, configuration] channel in
                listening.value.store(true, ordering: .relaxed)
                let port = channel.localAddress?.port ?? configuration.port
                // The address only: the token never goes into a log.
                logger.info("HTTP listening", metadata: ["address": "\(configuration.host):\(port)"])
                await onListening(port)
            },
            logger: logger)
        defer { pool.shutdown() }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await self.broadcaster.run() }
            group.addTask { [configuration] in
                do {
                    try await application.run()
                } catch  where !listening.value.load(ordering: .relaxed) {
                    throw CoordinatorHTTPError(
                        .listenFailed,
                        "cannot listen on \(configuration.host):\(configuration.port): \(error); is another process using the port? choose another with --http"
                    )
                }
            }
        }
    }

    func makeRouter() -> Router<APIRequestContext> {
        let router = Router(context: APIRequestContext.self)
        router.add(middleware: TokenAuthMiddleware(token: configuration.token, sessionLifetime: configuration.sessionLifetime))
        // Every queue the coordinator runs on is a fleet's (Redis, or memory in tests).
        if let fleet = queue as? any FleetClient.Queue {
            ReadAndActRoutes(
                client: FleetClient(queue: fleet), outputRoot: configuration.outputRoot, cacheRoot: configuration.cacheRoot, pool: pool,
                logger: logger
            ).add(to: router)
        }
        router.get("/metrics") { [metrics] _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
        router.get("/healthz") { [health, configuration] _, _ in
            let report = await health.healthReport(staleAfter: configuration.staleAfter)
            return try Self.json(report.healthy ? .ok : .serviceUnavailable, RecordJSON.encoder().encode(report).map { $0 })
        }
        router.get("/status") { [status] _, _ in
            try Self.json(.ok, await status())
        }
        router.get("/history") { [queue] request, _ in
            // The chart's history: the last `minutes` (1…120, default 60) of the coordinator's
            // per-minute series; empty when the queue keeps no projections.
            let minutes = request.uri.queryParameters.get("minutes", as: Int.self).map { min(max($0, 1), 120) } ?? 60
            let store = (queue as? any CoordinatorStoreProviding)?.coordinatorStore
            let series = try await store?.minuteSeries(count: minutes, endingAt: .now()) ?? []
            return try Self.json(.ok, RecordJSON.encoder().encode(FleetHistory(minutes: series)).map { $0 })
        }
        let events = ServerSentEvents(queue: queue, broadcaster: broadcaster, heartbeat: configuration.heartbeat)
        router.get("/events") { request, _ in events.response(for: request) }
        router.get("/") { _, _ in
            Response(
                status: .ok,
                headers: [
                    .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                    .contentSecurityPolicy: "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(string: DashboardPage.html)))
        }
        return router
    }

    static func json(_ status: HTTPResponse.Status, _ bytes: [UInt8]) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// Whether the server got as far as listening: an error before that is a bind failure.
private final class ListeningFlag: Sendable {
    let value = Atomic<Bool>(false)
}
