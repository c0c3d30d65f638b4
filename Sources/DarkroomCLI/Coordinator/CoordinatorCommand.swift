import ArgumentParser
import DarkroomCoordinator
import DarkroomCoordinatorHTTP
import DarkroomQueue
import DarkroomRedis
import DarkroomSystem
import DarkroomWebhooks
import Foundation
import Logging
import ServiceLifecycle

/// `darkroom coordinator`: follows the event stream into the event log on the volume until
/// SIGTERM/SIGINT.
struct CoordinatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coordinator",
        abstract: "Run the coordinator: fold the event stream into projections in Redis and the event log.",
        discussion: """
            One coordinator leads at a time (a lease in Redis; a second one waits and takes over \
            when the first is gone). The leader folds every event into per-job, per-batch and \
            per-worker projections in Redis, moving its checkpoint atomically with them, so \
            `darkroom get` and `darkroom status` answer in O(1); it publishes workerOffline when a \
            worker's heartbeat lapses, moves due delayed jobs into their streams, and trims the \
            event stream behind itself (at most --event-stream-cap entries while it is registered).

            With --event-log it also appends every event as a JSON line to the log on the volume, \
            up to 1000 events per write, each write flushed to the disk, resuming from the log's own \
            last complete line. The file is rotated when it passes --event-log-max-mb: FILE becomes \
            FILE.1, older files shift up, and at most --event-log-keep rotated files are kept. Events \
            the stream no longer holds when they are due are recorded as a gap record \
            (docs/coordinator.md).

            With --http HOST:PORT it also serves /metrics (Prometheus), /healthz, /status, \
            /events (Server-Sent Events) and a dashboard at /, with the job API's read and act \
            routes under /v1 for its drill-down and actions (cancel, retry, purge). Every endpoint \
            but /healthz needs the token from DARKROOM_HTTP_TOKEN, DARKROOM_HTTP_TOKEN_FILE or \
            --http-token-file; a non-loopback address without a token is refused unless \
            --insecure-http. Opening /?token=TOKEN logs a browser in for --session-ttl seconds. The \
            output preview reads --output-root (and --cache-root), as `darkroom api` does. When \
            standard output is a terminal the dashboard's address, with the token, is printed there.

            SIGTERM or SIGINT: finish the page in hand, give up the lease, exit 0. After SIGKILL, a \
            restart resumes both from their checkpoints, missing and repeating nothing.
            """
    )

    @Option(name: .customLong("event-log"), help: ArgumentHelp("Also write every event to this file (JSON lines).", valueName: "file"))
    var eventLog: String?

    @Option(name: .customLong("event-log-max-mb"), help: ArgumentHelp("Rotate the event log when it passes this size.", valueName: "MB"))
    var eventLogMaxMB: Int = 100

    @Option(name: .customLong("event-log-keep"), help: ArgumentHelp("Rotated event log files kept.", valueName: "N"))
    var eventLogKeep: Int = 10

    @Option(
        name: .customLong("event-stream-cap"),
        help: ArgumentHelp("The most events the stream holds while this coordinator is registered.", valueName: "N"))
    var eventStreamCap: Int = 1_000_000

    @Option(help: ArgumentHelp("The name this coordinator holds the lease under (default host:pid).", valueName: "name"))
    var name: String?

    @Flag(
        name: .customLong("no-webhooks"),
        help: "Do not run the webhook notifier in this process (another coordinator's takes the outbox's lease).")
    var noWebhooks = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @OptionGroup(title: "Webhooks")
    var webhooks: WebhookOptions

    @OptionGroup(title: "HTTP")
    var http: HTTPOptions

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func run() async throws {
        let settings: Settings
        do {
            settings = try makeSettings()
        } catch {
            throw error.exit()
        }
        let logger = ServiceLogging.logger(label: "darkroom.coordinator", level: settings.logLevel)
        // Patient connections, like a worker's: the coordinator outlives Redis restarts. Blocking
        // reads each hold a connection of their own: the projections' and the log's readers, each
        // with one page read ahead, and the HTTP side's one stream follower.
        // The webhook notifier's event reader holds one more.
        let blockingReaders = 4 + (settings.http == nil ? 0 : 1) + (noWebhooks ? 0 : 1)
        let client = RedisClient(
            url: settings.redisURL, options: RedisConnectionOptions(), connections: 4, dedicatedConnections: blockingReaders)
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, configuration: JobQueueConfiguration(), keyPrefix: settings.keyPrefix)
        let metrics = CoordinatorMetrics()
        // The webhook notifier: its own reader, checkpoint, lease and tasks, so a slow receiver
        // never holds up the projections; the stream is trimmed no further than it has read.
        let notifier =
            noWebhooks
            ? nil
            : WebhookOptions.notifier(
                queue: queue, client: client, keyPrefix: settings.keyPrefix, name: settings.name, policy: settings.webhookPolicy,
                metrics: metrics, logger: logger)
        var configuration = Coordinator.Configuration(eventLog: settings.eventLog, name: settings.name, streamCap: settings.streamCap)
        if let notifier { configuration.trimFloor = { await notifier.checkpoint() } }
        let coordinator = Coordinator(
            queue: queue, store: RedisCoordinatorStore(queue: queue), configuration: configuration, logger: logger, metrics: metrics)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: coordinator)]
        if let notifier { services.append(.init(service: notifier)) }
        if let (http, token) = settings.http {
            services.append(.init(service: QueueGaugePoller(queue: queue, metrics: metrics, logger: logger)))
            let server: CoordinatorHTTPServer
            do {
                server = try CoordinatorHTTPServer(
                    configuration: http, queue: queue, metrics: metrics, logger: logger,
                    onListening: { port in Self.printDashboard(http, token: token, port: port) })
            } catch {
                throw UsageFailure(error.message).exit()
            }
            services.append(.init(service: server))
        }
        logger.info(
            "darkroom coordinator \(DarkroomBuild.version)",
            metadata: [
                "name": "\(settings.name)", "redis": "\(settings.redisURL)", "prefix": "\(settings.keyPrefix)",
                "event-log": "\(settings.eventLog?.path ?? "none")",
            ])
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint], cancellationSignals: [],
                logger: Logger(label: "darkroom.coordinator.lifecycle", factory: { _ in SwiftLogNoOpLogHandler() })))
        do {
            try await group.run()
        } catch let error as EventLogError {
            StandardError.line("darkroom: \(error.message)")
            throw ExitCode(1)
        } catch let error as CoordinatorHTTPError {
            StandardError.line("darkroom: \(error.message)")
            throw ExitCode(1)
        } catch {
            logger.error("coordinator stopped with an error", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
    }

    /// The dashboard's address on standard output, only when it is a terminal: with a token the
    /// address carries it, and a redirected output (a log file, a pipe) must not.
    private static func printDashboard(_ http: CoordinatorHTTPConfiguration, token: String?, port: Int) {
        guard Terminal.isTerminal(1) else { return }
        let host = http.host.contains(":") ? "[\(http.host)]" : http.host
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let query = token.map { "?token=" + ($0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0) } ?? ""
        StandardOutput.line("dashboard: http://\(host):\(port)/\(query)")
    }

    private struct Settings {
        var http: (configuration: CoordinatorHTTPConfiguration, token: String?)?
        var eventLog: EventLogConfiguration?
        var name: String
        var streamCap: Int
        var redisURL: RedisURL
        var keyPrefix: String
        var logLevel: Logger.Level
        var webhookPolicy: WebhookDeliveryPolicy
    }

    private func makeSettings() throws(UsageFailure) -> Settings {
        if let eventLog, eventLog.isEmpty { throw UsageFailure("--event-log needs a file name") }
        guard (1000...1_000_000_000).contains(eventStreamCap) else {
            throw UsageFailure("--event-stream-cap must be 1000…1000000000 (got \(eventStreamCap))")
        }
        let name = name ?? CoordinatorName.default()
        guard JobID.isAcceptable(name) else { throw UsageFailure("--name must be 1–200 bytes without control characters") }
        guard (1...1_000_000).contains(eventLogMaxMB) else { throw UsageFailure("--event-log-max-mb must be 1…1000000 (got \(eventLogMaxMB))") }
        guard (1...1000).contains(eventLogKeep) else { throw UsageFailure("--event-log-keep must be 1…1000 (got \(eventLogKeep))") }
        let level = try ServiceLogging.level(logLevel)
        return Settings(
            http: try http.configuration(),
            eventLog: eventLog.map { EventLogConfiguration(path: $0, maxBytes: Int64(eventLogMaxMB) * 1024 * 1024, keep: eventLogKeep) },
            name: name, streamCap: eventStreamCap, redisURL: try redis.url(), keyPrefix: try redis.keyPrefix(), logLevel: level,
            webhookPolicy: try webhooks.policy())
    }
}
