import DarkroomAPIKeys
import DarkroomClient
import DarkroomHTTPAPI
import DarkroomOutput
import DarkroomPipeline
import DarkroomQueue
import DarkroomRedis
import DarkroomStandardProcessors
import DarkroomTestSupport
import DarkroomWebhooks
import DarkroomWorker
import Foundation
import Logging
import ServiceLifecycle

/// The job API on a free loopback port over a real redis-server, with (optionally) an in-process
/// worker reading `in/` and writing under `out/` of a scratch directory; run as a ServiceGroup
/// in a task until `stop()`. `http` sends the token of an `admin` + `submit` key granted `in/`
/// and `out/`, made in the test's Redis.
final class APIHarness: Sendable {
    let redis: RedisTestServer
    let client: RedisClient
    let queue: RedisStreamsQueue
    let keys: RedisAPIKeyStore
    let directory: String
    let port: Int
    /// The id and token of the harness's `admin` + `submit` key.
    let keyID: String
    let token: String
    private let task: Task<Void, any Error>

    /// The webhook endpoint the harness's key may name (`unregistered` too, which no test registers).
    static let grantedWebhook = "app-hook"

    static let silent = Logger(label: "darkroom.api.tests", factory: { _ in SwiftLogNoOpLogHandler() })

    /// `configure` changes the API's configuration before it starts (limits, timeouts).
    init(worker: Bool = true, corsOrigins: [String] = [], configure: (inout APIConfiguration) -> Void = { _ in }) async throws {
        redis = try RedisTestServer()
        client = RedisClient(url: try RedisURL(redis.url))
        queue = RedisStreamsQueue(client: client)
        keys = RedisAPIKeyStore(client: client)
        directory = try TestImages.makeDirectory("api")
        for folder in ["in", "out", "cache"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + folder, withIntermediateDirectories: true)
        }
        let created = try await keys.create(
            APIKeyRequest(
                name: "harness", scopes: [.submit, .admin],
                grants: APIKeyGrants(
                    sources: APIKeyGrants.defaultSources + [directory + "/in"], outputs: [directory + "/out"],
                    webhooks: [Self.grantedWebhook, "unregistered"], maxPriority: .high),
                rateLimit: APIRateLimit(perSecond: 100_000, burst: 100_000)))
        (keyID, token) = (created.key.id, created.token.reveal())
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        var configuration = APIConfiguration(host: "127.0.0.1", port: 0, outputRoot: directory + "/out", cacheRoot: directory + "/cache")
        configuration.corsOrigins = corsOrigins
        configure(&configuration)
        let server = try APIServer(
            configuration: configuration, client: FleetClient(queue: queue), idempotency: RedisIdempotencyStore(client: client),
            access: APIAccess(
                keys: keys, limiter: RedisRateLimiter(client: client), owners: RedisOwnershipStore(client: client),
                subscribeWebhooks: { [client] jobs in
                    try await RedisWebhookSubscriptions(client: client)
                        .subscribeNamed(jobs, endpoints: RedisWebhookEndpointStore(client: client))
                }),
            webhooks: APIWebhooks(endpoints: RedisWebhookEndpointStore(client: client), outbox: RedisWebhookOutbox(client: client)),
            logger: Self.silent, onListening: { portSink.yield($0) })
        var services: [any Service] = [server]
        if worker {
            var pipeline = ImagePipeline.Configuration()
            pipeline.sourcePolicy.fileRoots = [directory + "/in"]
            services.append(
                Worker(
                    queue: queue, pipeline: ImagePipeline(configuration: pipeline),
                    configuration: WorkerConfiguration(
                        name: "api-test-worker", concurrency: 2, heartbeatInterval: .milliseconds(200), reserveWait: .milliseconds(200),
                        outputs: VolumeSink(roots: [directory + "/out"]), processors: StandardProcessors.registry, version: "test"),
                    logger: Self.silent))
        }
        let group = ServiceGroup(services: services, logger: Self.silent)
        task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw HTTPTestClient.Failure(description: "the API did not start") }
        self.port = port
        if worker {
            let deadline = ContinuousClock.now + .seconds(10)
            while try await queue.liveWorkers().isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        }
    }

    /// Runs `body` with a harness, and stops it however `body` ends.
    static func with(
        worker: Bool = true, corsOrigins: [String] = [], configure: (inout APIConfiguration) -> Void = { _ in },
        _ body: (APIHarness) async throws -> Void
    ) async throws {
        let api = try await APIHarness(worker: worker, corsOrigins: corsOrigins, configure: configure)
        do {
            try await body(api)
        } catch {
            await api.stop()
            throw error
        }
        await api.stop()
    }

    /// The API as the harness's `admin` + `submit` key.
    var http: KeyedHTTPClient { http(token: token) }

    /// The API as the key of `token`, or with no `Authorization` at all.
    func http(token: String?) -> KeyedHTTPClient { KeyedHTTPClient(client: HTTPTestClient(port: port), token: token) }

    /// Makes a key in the test's Redis and returns its id and token; by default `submit` + `read`
    /// with the harness's grants.
    func key(
        _ name: String, scopes: Set<APIScope> = [.submit, .read], sources: [String]? = nil,
        rateLimit: APIRateLimit = APIRateLimit(perSecond: 100_000, burst: 100_000)
    ) async throws -> (id: String, token: String) {
        let created = try await keys.create(
            APIKeyRequest(
                name: name, scopes: scopes,
                grants: APIKeyGrants(sources: sources ?? APIKeyGrants.defaultSources + [directory + "/in"], outputs: [directory + "/out"]),
                rateLimit: rateLimit))
        return (created.key.id, created.token.reveal())
    }

    /// Writes a small PNG to `in/name` and returns its path.
    func image(_ name: String) throws -> String {
        let path = directory + "/in/" + name
        try Data(try TestImages.gradient(.png, width: 96, height: 64)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// POSTs `json` to `path` as the harness's key.
    func post(_ path: String, _ json: String, headers: [(String, String)] = []) async throws -> HTTPTestClient.Reply {
        try await http.post(path, json, headers: headers)
    }

    /// The reply's body as a JSON object.
    static func object(_ reply: HTTPTestClient.Reply) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any] else {
            throw HTTPTestClient.Failure(description: "not a JSON object: \(reply.text)")
        }
        return object
    }

    /// Polls `GET /v1/jobs/{id}` until its state is terminal; returns the last answer.
    func waitForJob(_ id: String, timeout: Duration = .seconds(30)) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let reply = try await http.get("/v1/jobs/\(id)")
            if reply.status == 200, let state = try Self.object(reply)["state"] as? String,
                ["succeeded", "failed", "dead", "cancelled"].contains(state)
            {
                return try Self.object(reply)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw HTTPTestClient.Failure(description: "job \(id) did not end within \(timeout)")
    }

    func stop() async {
        task.cancel()
        _ = await task.result
        client.close()
        redis.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
