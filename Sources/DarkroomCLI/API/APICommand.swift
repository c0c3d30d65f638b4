import ArgumentParser
import DarkroomAPIKeys
import DarkroomClient
import DarkroomHTTPAPI
import DarkroomQueue
import DarkroomRedis
import DarkroomS3
import DarkroomSystem
import DarkroomWebhooks
import Logging
import ServiceLifecycle

/// `darkroom api`: serves the HTTP job API (docs/http-api.md) until SIGTERM/SIGINT.
struct APICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "Serve the HTTP job API: submit, read and cancel jobs, fetch their outputs.",
        discussion: """
            Stateless: the queue, the batches and the Idempotency-Key records are in Redis, so any \
            number of these processes can run behind a load balancer, and they keep answering \
            while the coordinator fails over. Jobs are checked exactly as `darkroom enqueue` checks \
            them, with the same error codes (docs/http-api.md).

            It speaks plain HTTP. A --listen address other machines can reach is refused \
            (api.tls-required) unless --behind-tls-proxy says a TLS-terminating proxy is in front.

            Every /v1 request but GET /v1/openapi.json needs an API key (`darkroom api-key \
            create`), sent as `Authorization: Bearer <token>`; keys live in the same Redis, so a \
            revocation reaches every API process within 5 s.

            A batch may name s3:// prefixes and globs as sources: the API lists them page by page \
            and enqueues each page as it comes, at most 10000 jobs per request, from the buckets \
            --allow-bucket allows on the endpoints --s3-endpoint configures (credentials from the \
            environment, as for workers).

            Outputs are served from --output-root (the volume the workers write, read only) and, \
            for results kept only in the cache, --cache-root; a path under neither is not served.

            SIGTERM or SIGINT: stop accepting connections, finish the requests in hand, exit 0.
            """
    )

    @Option(help: ArgumentHelp("The address to listen on: HOST:PORT, [::1]:PORT; port 0 picks a free one.", valueName: "host:port"))
    var listen: String = "127.0.0.1:8080"

    @Flag(name: .customLong("behind-tls-proxy"), help: "Allow a non-loopback --listen: a TLS-terminating proxy is in front of this plain-HTTP server.")
    var behindTLSProxy = false

    @Option(help: ArgumentHelp("The volume job outputs are written under, served read only (as the workers' --allow-output-root).", valueName: "dir"))
    var outputRoot: String?

    @Option(help: ArgumentHelp("The shared cache directory, for results kept only in the cache (default: $DARKROOM_CACHE_DIR).", valueName: "dir"))
    var cacheRoot: String?

    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp(
            "Let browser pages from ORIGIN (scheme://host[:port]) call the API; repeat for more. Default: no cross-origin access.",
            valueName: "origin"))
    var corsOrigins: [String] = []

    @Option(
        name: .customLong("header-timeout"),
        help: ArgumentHelp(
            "Seconds a request's headers may take to arrive, from the connection or its first byte; past it: 408 and close.",
            valueName: "seconds"))
    var headerTimeout: Double = 10

    @Option(
        name: .customLong("body-timeout"),
        help: ArgumentHelp("Seconds a request's body may take to arrive after its headers; past it: 408 and close.", valueName: "seconds"))
    var bodyTimeout: Double = 60

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    /// Where `s3://` prefixes and globs of `POST /v1/batches` are listed (docs/http-api.md#prefixes-and-globs).
    @OptionGroup(title: "Object storage")
    var s3: S3Options

    func run() async throws {
        let configuration: APIConfiguration
        let level: Logger.Level
        do {
            let (host, port) = try APIConfiguration.address(listen)
            var checked = APIConfiguration(
                host: host, port: port, behindTLSProxy: behindTLSProxy, outputRoot: outputRoot,
                cacheRoot: cacheRoot ?? CacheDirectory.fromEnvironment)
            checked.corsOrigins = corsOrigins
            checked.headTimeout = .milliseconds(Self.milliseconds(headerTimeout))
            checked.bodyTimeout = .milliseconds(Self.milliseconds(bodyTimeout))
            checked.s3 = try s3.configuration()
            try checked.validate()
            configuration = checked
            level = try ServiceLogging.level(logLevel)
        } catch let error as APIError {
            throw UsageFailure(error.message).exit()
        } catch let failure as UsageFailure {
            throw failure.exit()
        }
        let logger = ServiceLogging.logger(label: "darkroom.api", level: level)
        // Patient connections: the API outlives Redis restarts, answering 503 meanwhile. Nothing
        // blocks on a connection (lookups read events without waiting).
        let client: RedisClient
        let prefix: String
        do {
            client = RedisClient(url: try redis.url(), options: RedisConnectionOptions(), connections: 8, dedicatedConnections: 1)
            prefix = try redis.keyPrefix()
        } catch {
            throw error.exit()
        }
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, configuration: JobQueueConfiguration(), keyPrefix: prefix)
        let server: APIServer
        do {
            server = try APIServer(
                configuration: configuration, client: FleetClient(queue: queue),
                idempotency: RedisIdempotencyStore(client: client, keyPrefix: prefix),
                access: APIAccess(
                    keys: RedisAPIKeyStore(client: client, keyPrefix: prefix), limiter: RedisRateLimiter(client: client, keyPrefix: prefix),
                    owners: RedisOwnershipStore(client: client, keyPrefix: prefix),
                    subscribeWebhooks: { jobs in
                        try await RedisWebhookSubscriptions(client: client, keyPrefix: prefix)
                            .subscribeNamed(jobs, endpoints: RedisWebhookEndpointStore(client: client, keyPrefix: prefix))
                    }),
                webhooks: APIWebhooks(
                    endpoints: RedisWebhookEndpointStore(client: client, keyPrefix: prefix), outbox: RedisWebhookOutbox(client: client, keyPrefix: prefix)),
                logger: logger)
        } catch {
            throw UsageFailure(error.message).exit()
        }
        logger.info("darkroom api \(DarkroomBuild.version)", metadata: ["redis": "\(client.url)", "prefix": "\(prefix)"])
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: server)], gracefulShutdownSignals: [.sigterm, .sigint], cancellationSignals: [],
                logger: Logger(label: "darkroom.api.lifecycle", factory: { _ in SwiftLogNoOpLogHandler() })))
        do {
            try await group.run()
        } catch let error as APIError {
            StandardError.line("darkroom: \(error.message)")
            throw ExitCode(1)
        } catch {
            logger.error("api stopped with an error", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
    }

    /// Seconds as whole milliseconds; out of range (or not a number) as -1, which `validate`
    /// refuses.
    static func milliseconds(_ seconds: Double) -> Int64 {
        guard seconds.isFinite, seconds > 0, seconds <= 3600 else { return -1 }
        return Int64((seconds * 1000).rounded(.up))
    }
}
