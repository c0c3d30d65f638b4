import ArgumentParser
import DarkroomCoordinator
import DarkroomQueue
import DarkroomRedis
import Logging
import ServiceLifecycle

/// `darkroom coordinator`: follows the event stream into the event log on the volume until
/// SIGTERM/SIGINT.
struct CoordinatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coordinator",
        abstract: "Run the coordinator: write every event of the stream to the event log.",
        discussion: """
            Reads the event stream from the log's own last complete line (from the oldest event \
            Redis retains when the log is new) and appends JSON lines, up to 1000 events per write, \
            each write flushed to the disk. The file is rotated when it passes --event-log-max-mb: \
            FILE becomes FILE.1, older files shift up, and at most --event-log-keep rotated files \
            are kept. Events the stream no longer holds when they are due are recorded in the log \
            as a gap record (docs/coordinator.md).

            SIGTERM or SIGINT: write the batch in hand, exit 0. After SIGKILL, a restart cuts a \
            half-written last line and resumes after the last complete one.
            """
    )

    @Option(name: .customLong("event-log"), help: ArgumentHelp("The event log file (JSON lines).", valueName: "file"))
    var eventLog: String?

    @Option(name: .customLong("event-log-max-mb"), help: ArgumentHelp("Rotate the event log when it passes this size.", valueName: "MB"))
    var eventLogMaxMB: Int = 100

    @Option(name: .customLong("event-log-keep"), help: ArgumentHelp("Rotated event log files kept.", valueName: "N"))
    var eventLogKeep: Int = 10

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

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
        // Patient connections, like a worker's: the coordinator outlives Redis restarts.
        let client = RedisClient(url: settings.redisURL, options: RedisConnectionOptions(), connections: 2, dedicatedConnections: 1)
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, configuration: JobQueueConfiguration(), keyPrefix: settings.keyPrefix)
        let coordinator = Coordinator(queue: queue, configuration: .init(eventLog: settings.eventLog), logger: logger)
        logger.info(
            "darkroom coordinator \(DarkroomVersion.current)",
            metadata: ["redis": "\(settings.redisURL)", "prefix": "\(settings.keyPrefix)", "event-log": "\(settings.eventLog.path)"])
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: coordinator)], gracefulShutdownSignals: [.sigterm, .sigint], cancellationSignals: [],
                logger: Logger(label: "darkroom.coordinator.lifecycle", factory: { _ in SwiftLogNoOpLogHandler() })))
        do {
            try await group.run()
        } catch let error as EventLogError {
            StandardError.line("darkroom: \(error.message)")
            throw ExitCode(1)
        } catch {
            logger.error("coordinator stopped with an error", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
    }

    private struct Settings {
        var eventLog: EventLogConfiguration
        var redisURL: RedisURL
        var keyPrefix: String
        var logLevel: Logger.Level
    }

    private func makeSettings() throws(UsageFailure) -> Settings {
        guard let eventLog, !eventLog.isEmpty else { throw UsageFailure("--event-log FILE is required") }
        guard (1...1_000_000).contains(eventLogMaxMB) else { throw UsageFailure("--event-log-max-mb must be 1…1000000 (got \(eventLogMaxMB))") }
        guard (1...1000).contains(eventLogKeep) else { throw UsageFailure("--event-log-keep must be 1…1000 (got \(eventLogKeep))") }
        let level = try ServiceLogging.level(logLevel)
        return Settings(
            eventLog: EventLogConfiguration(path: eventLog, maxBytes: Int64(eventLogMaxMB) * 1024 * 1024, keep: eventLogKeep),
            redisURL: try redis.url(), keyPrefix: try redis.keyPrefix(), logLevel: level)
    }
}
