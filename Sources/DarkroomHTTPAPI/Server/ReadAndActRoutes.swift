import DarkroomAPIKeys
import DarkroomClient
import DarkroomQueue
import DarkroomSystem
import Hummingbird
import Logging

/// The job API's routes that read work and act on it — a job, its output, a batch, the dead
/// letters; cancel, retry, purge — registered on a router by one function, so that two servers
/// serve them from the same handlers: `APIServer` (for API keys) and the coordinator's dashboard
/// (`DarkroomCoordinatorHTTP`, for its login session, `APIKey.dashboardSession`). Submitting and
/// webhooks stay the API's alone.
///
/// Every handler reads the key from `APIRequestContext.key`, which the server's own
/// authentication middleware sets, and checks scope and ownership as the API does.
public struct ReadAndActRoutes: Sendable {
    let routes: JobRoutes
    let outputs: OutputRoute
    let deadLetters: DeadLetterRoutes
    let maxBodyBytes: Int

    init(routes: JobRoutes, outputs: OutputRoute, maxBodyBytes: Int) {
        self.routes = routes
        self.outputs = outputs
        deadLetters = DeadLetterRoutes(client: routes.client, access: routes.access)
        self.maxBodyBytes = maxBodyBytes
    }

    /// The routes for a process that is not the job API and whose every request acts as an
    /// `admin` key (the coordinator's dashboard session): ownership is never consulted for
    /// `admin`, so no key store, rate limiter or ownership records are needed.
    ///
    /// - Parameters:
    ///   - outputRoot, cacheRoot: where outputs are read from, as `darkroom api --output-root` and
    ///     `--cache-root`; nil serves no output under that root (the answer says why).
    ///   - pool: the threads output files are read on (never the cooperative pool).
    public init(client: FleetClient, outputRoot: String?, cacheRoot: String?, pool: BlockingWorkPool, logger: Logger) {
        let configuration = APIConfiguration(outputRoot: outputRoot, cacheRoot: cacheRoot)
        let access = APIAccess(keys: MemoryAPIKeyStore(), limiter: MemoryRateLimiter(), owners: AdminOnlyOwnership())
        let routes = JobRoutes(client: client, configuration: configuration, access: access, logger: logger)
        let files = OutputFiles(outputRoot: outputRoot, cacheRoot: cacheRoot, maxBytes: configuration.maxOutputBytes)
        self.init(
            routes: routes, outputs: OutputRoute(client: client, files: files, pool: pool, access: access),
            maxBodyBytes: configuration.maxBodyBytes)
    }

    /// Registers `GET`/`DELETE /v1/jobs/{id}`, `GET /v1/jobs/{id}/output`, `GET`/`DELETE
    /// /v1/batches/{batch}`, `GET /v1/batches/{batch}/jobs`, `GET`/`DELETE /v1/dead-letters` and
    /// `POST /v1/dead-letters/retry`.
    public func add(to router: Router<APIRequestContext>) {
        let (routes, outputs, deadLetters, maxBody) = (routes, outputs, deadLetters, maxBodyBytes)
        let logger = routes.logger
        router.get("/v1/jobs/{id}/output") { request, context in
            await APIServer.answer(logger) {
                try await outputs.output(
                    try APIServer.jobID(context), ifNoneMatch: request.headers[.ifNoneMatch], key: try context.requireKey())
            }
        }
        router.get("/v1/jobs/{id}") { _, context in
            await APIServer.answer(logger) { try await routes.job(try APIServer.jobID(context), key: try context.requireKey()) }
        }
        router.delete("/v1/jobs/{id}") { _, context in
            await APIServer.answer(logger) { try await routes.cancel(try APIServer.jobID(context), key: try context.requireKey()) }
        }
        router.get("/v1/dead-letters") { request, context in
            await APIServer.answer(logger) {
                let query = request.uri.queryParameters
                return try await deadLetters.list(
                    limit: query["limit"].map(String.init), cursor: query["cursor"].map(String.init), key: try context.requireKey())
            }
        }
        router.post("/v1/dead-letters/retry") { request, context in
            await APIServer.answer(logger) {
                let key = try context.requireKey()
                var request = request
                return try await deadLetters.retry(Array(buffer: try await request.collectBody(upTo: maxBody)), key: key)
            }
        }
        router.delete("/v1/dead-letters") { _, context in
            await APIServer.answer(logger) { try await deadLetters.purge(key: try context.requireKey()) }
        }
        router.get("/v1/batches/{batch}") { _, context in
            await APIServer.answer(logger) { try await routes.batch(try APIServer.batchName(context), key: try context.requireKey()) }
        }
        router.get("/v1/batches/{batch}/jobs") { request, context in
            await APIServer.answer(logger) {
                let query = request.uri.queryParameters
                return try await routes.jobs(
                    inBatch: try APIServer.batchName(context), state: query["state"].map(String.init), cursor: query["cursor"].map(String.init),
                    limit: query["limit"].map(String.init), key: try context.requireKey())
            }
        }
        router.delete("/v1/batches/{batch}") { _, context in
            await APIServer.answer(logger) {
                try await routes.cancel(batch: try APIServer.batchName(context), key: try context.requireKey())
            }
        }
    }
}

/// The ownership records of a server whose only key is `admin`: `APIAccess` never asks an
/// `admin` key's owner, and such a server submits nothing, so there is nothing to record or read.
struct AdminOnlyOwnership: OwnershipStore {
    func record(owner: String, isAdmin: Bool, batches: [String], jobs: [String], lifetime: Duration) async throws -> String? { nil }
    func owner(ofJob id: String) async throws -> String? { nil }
    func owners(ofJobs ids: [String]) async throws -> [String?] { ids.map { _ in nil } }
    func owner(ofBatch name: String) async throws -> String? { nil }
}
