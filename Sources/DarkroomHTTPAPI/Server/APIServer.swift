import DarkroomAPIKeys
import DarkroomClient
import DarkroomQueue
import DarkroomSystem
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle
import Synchronization

/// The HTTP job API, a swift-service-lifecycle `Service`. It keeps no state of its own — the
/// queue, the batches and the idempotency records are in Redis — so any number of them can run
/// behind a load balancer, and one stays useful while the coordinator fails over.
///
/// - `POST /v1/jobs`, `POST /v1/batches`: submit one job or up to 1000 (`JobSubmission`), or
///   the objects of `s3://` prefixes and globs, listed page by page (`JobRoutes.submitListed`);
/// - `GET`/`DELETE /v1/jobs/{id}`, `GET`/`DELETE /v1/batches/{batch}`: read or cancel;
/// - `GET /v1/batches/{batch}/jobs`: a batch's jobs, paged and filterable by state;
/// - `GET /v1/jobs/{id}/output`: the output's bytes (`OutputFiles`);
/// - `GET`/`DELETE /v1/dead-letters`, `POST /v1/dead-letters/retry`: list, purge, retry;
/// - `/v1/webhooks…`: register, list, rotate and remove webhook endpoints, list and redeliver
///   deliveries (`WebhookRoutes`, `admin` only);
/// - `GET /v1/openapi.json`: the OpenAPI 3.1 document (`OpenAPIDocument`).
///
/// Every `/v1` route but the OpenAPI document needs an API key (`AuthenticationMiddleware`), and
/// each checks the key's scope and, without `admin`, that the work is the key's own.
///
/// The endpoints are docs/http-api.md. Graceful shutdown stops taking connections and lets the
/// requests in hand finish.
public final class APIServer: Service, Sendable {
    public let configuration: APIConfiguration
    private let routes: JobRoutes
    /// Reading and acting on jobs, batches and dead letters: shared with the coordinator's dashboard.
    private let readAndAct: ReadAndActRoutes
    private let idempotency: IdempotentSubmit
    private let access: APIAccess
    let webhooks: WebhookRoutes
    private let pool = BlockingWorkPool(threadCount: 2)
    let logger: Logger
    private let onListening: @Sendable (Int) async -> Void

    /// - Parameters:
    ///   - client: the fleet the jobs go to (over `RedisStreamsQueue`, or any driver in tests).
    ///   - idempotency: where `Idempotency-Key` answers are kept, scoped by the API key's id; nil
    ///     refuses requests with an `Idempotency-Key`.
    ///   - access: the API keys, their rate limits and who owns which work.
    ///   - webhooks: the webhook endpoints and outbox `/v1/webhooks…` manage; nil answers those
    ///     routes 404 (`darkroom api` always passes the fleet's).
    ///   - onListening: called with the bound port once the server listens (port 0 picks one).
    public init(
        configuration: APIConfiguration, client: FleetClient, idempotency: (any IdempotencyStore)?, access: APIAccess,
        webhooks: APIWebhooks? = nil, logger: Logger, onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws(APIError) {
        try configuration.validate()
        self.configuration = configuration
        let routes = JobRoutes(client: client, configuration: configuration, access: access, logger: logger)
        self.routes = routes
        readAndAct = ReadAndActRoutes(
            routes: routes,
            outputs: OutputRoute(
                client: client,
                files: OutputFiles(
                    outputRoot: configuration.outputRoot, cacheRoot: configuration.cacheRoot, maxBytes: configuration.maxOutputBytes),
                pool: pool, access: access),
            maxBodyBytes: configuration.maxBodyBytes)
        self.idempotency = IdempotentSubmit(store: idempotency)
        self.access = access
        self.webhooks = WebhookRoutes(webhooks: webhooks)
        self.logger = logger
        self.onListening = onListening
    }

    public func run() async throws {
        let listening = Atomic<Bool>(false)
        // A deadline for each request's head and body: the idle timeout alone lets a client that
        // sends a byte every few seconds keep its connection for ever.
        let (headTimeout, bodyTimeout) = (configuration.headTimeout, configuration.bodyTimeout)
        let application = Application(
            router: makeRouter(),
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [RequestDeadlineHandler(headTimeout: headTimeout, bodyTimeout: bodyTimeout)],
                    idleTimeout: RequestDeadlineHandler.amount(configuration.idleTimeout))),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "darkroom",
                availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections)),
            onServerRunning: { [onListening, logger, configuration] channel in
                listening.store(true, ordering: .relaxed)
                let port = channel.localAddress?.port ?? configuration.port
                logger.info("API listening", metadata: ["address": "\(configuration.host):\(port)"])
                await onListening(port)
            },
            logger: logger)
        defer { pool.shutdown() }
        do {
            try await application.run()
        } catch  where !listening.load(ordering: .relaxed) {
            throw APIError(
                .listenFailed,
                "cannot listen on \(configuration.host):\(configuration.port): \(error); is another process using the port? choose another with --listen")
        }
    }

    func makeRouter() -> Router<APIRequestContext> {
        let router = Router(context: APIRequestContext.self)
        // CORS outermost: a preflight carries no token, and refusals get the CORS headers too.
        if !configuration.corsOrigins.isEmpty { router.add(middleware: CORSMiddleware(origins: Set(configuration.corsOrigins))) }
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: AuthenticationMiddleware(access: access))
        let (routes, idempotency) = (routes, idempotency)
        let maxBody = configuration.maxBodyBytes
        let keyField = HTTPField.Name(IdempotencyKeys.header)!
        for kind in [JobRoutes.SubmitKind.job, .batch] {
            router.post(kind == .job ? "/v1/jobs" : "/v1/batches") { request, context in
                await Self.answer(routes.logger) {
                    let key = try context.requireKey()
                    var request = request
                    let body = Array(buffer: try await request.collectBody(upTo: maxBody))
                    // Keyed by the API key's id: two callers' Idempotency-Keys never meet.
                    return try await idempotency.answer(
                        key: request.headers[keyField], scope: key.id, endpoint: kind.rawValue, body: body
                    ) { try await routes.submit(body, kind: kind, key: key, clientConnected: { [context] in await context.clientConnected() }) }
                }
            }
        }
        router.get("/v1/openapi.json") { _, _ in APIResponse.json(.ok, bytes: Array(OpenAPIDocument.json.utf8)) }
        readAndAct.add(to: router)
        addWebhookRoutes(to: router)
        return router
    }

    /// Runs a handler; any error becomes its JSON error answer (unexpected ones are logged).
    static func answer(_ logger: Logger, _ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch {
            let response = APIResponse.failure(error)
            if response.status.code >= 500 { logger.error("request failed", metadata: ["error": "\(error)"]) }
            return response
        }
    }

    /// The `{id}` of the path, percent-decoded (ids may hold `/` or `#`, sent as `%2F`, `%23`).
    static func jobID(_ context: APIRequestContext) throws(APIError) -> JobID {
        guard let text = context.parameters.get("id")?.removingPercentEncoding, let id = JobID(rawValue: text) else {
            throw APIError(.notFound, "not a job id: ids are 1–200 bytes without control characters")
        }
        return id
    }

    /// The `{batch}` of the path, percent-decoded.
    static func batchName(_ context: APIRequestContext) throws(APIError) -> String {
        guard let text = context.parameters.get("batch")?.removingPercentEncoding, JobID.isAcceptable(text) else {
            throw APIError(.notFound, "not a batch name: names are 1–200 bytes without control characters")
        }
        return text
    }
}
