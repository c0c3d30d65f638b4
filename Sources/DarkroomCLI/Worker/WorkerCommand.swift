import ArgumentParser
import DarkroomCache
import DarkroomClient
import DarkroomCodecs
import DarkroomCore
import DarkroomOutput
import DarkroomPipeline
import DarkroomQueue
import DarkroomRedis
import DarkroomS3
import DarkroomSystem
import DarkroomWorker
import Foundation
import Logging
import ServiceLifecycle

/// `darkroom worker`: pulls jobs from Redis and runs them until SIGTERM/SIGINT.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run a worker: pull jobs from Redis, process them, publish events.",
        discussion: """
            Runs up to --concurrency jobs at once and reserves only what it can start. Each result is \
            stored in the cache (--cache) and, for jobs enqueued with --out, written under that \
            directory — which must be inside an --allow-output-root. Queued file sources must be \
            inside an --allow-file-root.

            Failures are classified: a corrupt image, a bad chain, limits, HTTP 4xx or a refused \
            source fail the job at once; timeouts, HTTP 5xx/429, connection errors and a full disk \
            are retried with exponential backoff and full jitter (1 s … 5 min) until --max-attempts, \
            then dead-lettered. A job naming a processor this worker lacks is handed back for \
            another worker.

            With --cache, workers sharing the cache directory compute each result (and download each \
            source) once: a short Redis lease per cache key makes the others wait for it.

            SIGTERM or SIGINT: stop taking jobs, finish those in hand within --grace-period, leave \
            the rest for other workers (they reclaim them after --visibility-timeout), exit 0. \
            An unreachable Redis is reported on standard error and retried with backoff, forever.
            """
    )

    @Option(
        name: [.customShort("j"), .long],
        help: "Jobs run at once (default: 16, or twice --cpus when that is more).")
    var concurrency: Int?

    @Option(
        help: ArgumentHelp(
            "Threads for pixel work: decoding, processing, encoding (default: the cores this process may use, at most --concurrency).",
            discussion:
                "The cores this process may use are the fewest of the online cores, its CPU affinity and its cgroup's CPU limit (cpu.max, or cgroup v1's quota), rounded up."
        ))
    var cpus: Int?

    @Option(
        name: .customLong("reserve-ahead"),
        help: ArgumentHelp(
            "The most jobs held that have not started their work (default: twice --cpus).",
            discussion:
                "A job starts when its CPU work begins or its result is found in the cache, so cache hits still run --concurrency at once; a killed worker strands at most this many jobs that had not started."
        ))
    var reserveAhead: Int?

    @Option(help: "Shared cache directory (default: $DARKROOM_CACHE_DIR; none: compute every time).")
    var cache: String?

    @Option(
        name: .customLong("allow-output-root"),
        help: ArgumentHelp(
            "Directory job outputs (enqueue --out) may be written under (repeatable). Without one, jobs with an output fail.",
            valueName: "dir"))
    var outputRoots: [String] = []

    @Option(help: ArgumentHelp("Seconds a job may go without a lease renewal before other workers reclaim it.", valueName: "seconds"))
    var visibilityTimeout: Double = 30

    @Option(help: "Most attempts per job (retries and redeliveries); then it is dead-lettered.")
    var maxAttempts: Int = 5

    @Option(help: ArgumentHelp("Seconds jobs in hand may take to finish after SIGTERM/SIGINT.", valueName: "seconds"))
    var gracePeriod: Double = 25

    @Option(
        help: ArgumentHelp(
            "Ceiling in seconds of the first retry's delay; it doubles per attempt (full jitter) up to --retry-cap.",
            valueName: "seconds"))
    var retryBase: Double = 1

    @Option(help: ArgumentHelp("Longest delay between retries, in seconds.", valueName: "seconds"))
    var retryCap: Double = 300

    @Option(help: "The worker's name in events and `darkroom` fleet listings (default: host:pid). Unique per worker.")
    var name: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @Option(
        help: ArgumentHelp(
            "Touch this file every 5 s while the worker runs, for a liveness probe (darkroom health --heartbeat-file); removed on exit.",
            valueName: "file"))
    var heartbeatFile: String?

    @OptionGroup
    var limits: LimitOptions

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    @OptionGroup(title: "Sources")
    var sources: SourcePolicyOptions

    @OptionGroup(title: "Object storage")
    var s3: S3Options

    @OptionGroup(title: "Object-storage outputs")
    var s3Outputs: S3OutputOptions

    @OptionGroup(title: "Plugins")
    var plugins: PluginOptions

    func run() async throws {
        let settings: Settings
        do {
            settings = try makeSettings()
        } catch {
            throw error.exit()
        }
        let logger = ServiceLogging.logger(label: "darkroom.worker", level: settings.logLevel)
        // Patient connections: a worker outlives Redis restarts; the worker loop adds its own backoff.
        let client = RedisClient(
            url: settings.redisURL, options: RedisConnectionOptions(),
            connections: max(4, settings.worker.concurrency + 2), dedicatedConnections: 2)
        let queue = RedisStreamsQueue(client: client, configuration: settings.queue, keyPrefix: settings.keyPrefix)
        var pipelineConfiguration = settings.pipeline
        if pipelineConfiguration.diskCache != nil {
            pipelineConfiguration.leases = RedisWorkLeases(client: client, keyPrefix: settings.keyPrefix)
        }
        let worker = Worker(
            queue: queue, pipeline: ImagePipeline(configuration: pipelineConfiguration),
            configuration: settings.worker, logger: logger)
        logger.info(
            "darkroom worker \(DarkroomBuild.version)",
            metadata: [
                "redis": "\(settings.redisURL)", "prefix": "\(settings.keyPrefix)",
                "cache": "\(pipelineConfiguration.diskCache?.directory ?? "none")",
                "output-roots": "\(settings.outputRoots.joined(separator: ","))",
            ])

        // Services stop in reverse order: the worker drains first, the heartbeat file goes last.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let heartbeat = settings.heartbeat { services.append(.init(service: heartbeat)) }
        // Orphaned multipart uploads in the allowed buckets, at start and every --s3-sweep-interval.
        if let sink = settings.s3Sink, s3Outputs.sweeps {
            services.append(.init(service: S3UploadSweepService(sink: sink, logger: logger)))
        }
        services.append(.init(service: worker))
        var groupConfiguration = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], cancellationSignals: [],
            logger: Logger(label: "darkroom.worker.lifecycle", factory: { _ in SwiftLogNoOpLogHandler() }))
        // A safety net past the grace period: then the worker is cancelled (it abandons what is left).
        groupConfiguration.maximumGracefulShutdownDuration = settings.worker.gracePeriod + .seconds(15)
        let group = ServiceGroup(configuration: groupConfiguration)
        do {
            try await group.run()
        } catch {
            logger.error("worker stopped with an error", metadata: ["error": "\(error)"])
            client.close()
            throw ExitCode(1)
        }
        pipelineConfiguration.diskCache?.flushStatistics()
        client.close()
    }

    private struct Settings {
        var worker: WorkerConfiguration
        var queue: JobQueueConfiguration
        var pipeline: ImagePipeline.Configuration
        var redisURL: RedisURL
        var keyPrefix: String
        var logLevel: Logger.Level
        var heartbeat: HeartbeatFile?
        /// The `--allow-output-root` directories, absolute (for the start-up log line).
        var outputRoots: [String]
        /// The object-storage sink `s3://` outputs go to, when a bucket is allowed.
        var s3Sink: S3Sink?
    }

    private func makeSettings() throws(UsageFailure) -> Settings {
        guard concurrency.map({ (1...4096).contains($0) }) ?? true else { throw UsageFailure("--concurrency must be 1…4096") }
        guard cpus.map({ (1...1024).contains($0) }) ?? true else { throw UsageFailure("--cpus must be 1…1024") }
        guard reserveAhead.map({ (1...4096).contains($0) }) ?? true else { throw UsageFailure("--reserve-ahead must be 1…4096") }
        guard visibilityTimeout.isFinite, (0.1...86_400).contains(visibilityTimeout) else {
            throw UsageFailure("--visibility-timeout must be 0.1…86400 seconds (got \(visibilityTimeout))")
        }
        guard (1...1000).contains(maxAttempts) else { throw UsageFailure("--max-attempts must be 1…1000 (got \(maxAttempts))") }
        guard retryBase.isFinite, retryCap.isFinite, (0...86_400).contains(retryBase), (0...86_400).contains(retryCap) else {
            throw UsageFailure("--retry-base and --retry-cap must be 0…86400 seconds")
        }
        guard gracePeriod.isFinite, (0...86_400).contains(gracePeriod) else {
            throw UsageFailure("--grace-period must be 0…86400 seconds (got \(gracePeriod))")
        }
        if let name, JobID(rawValue: name) == nil { throw UsageFailure("--name must be 1–200 bytes without control characters") }
        let level = try ServiceLogging.level(logLevel)
        let renderLimits = try limits.renderLimits()
        let workingDirectory = FileManager.default.currentDirectoryPath
        let roots = outputRoots.map { PathResolver.absolute($0, from: workingDirectory) }
        for root in roots where !FileIO.isDirectory(root) {
            throw UsageFailure("--allow-output-root '\(root)' is not a directory; create it first")
        }

        var policy = try sources.policy(typedByAPerson: false)
        policy.fileRoots = policy.fileRoots?.map { PathResolver.absolute($0, from: workingDirectory) }
        // The CPU pool: --cpus, else the cores this process may use (at most an explicit -j).
        let cpuThreads = cpus ?? min(concurrency ?? Cores.count, Cores.count)
        let jobsInFlight = concurrency ?? WorkerConfiguration.defaultConcurrency(cpus: cpuThreads)
        let catalog = plugins.loadCatalog()
        var pipeline = ImagePipeline.Configuration()
        pipeline.coders = catalog.coders
        pipeline.providers = try s3.providers(adding: catalog.providers)
        pipeline.sourcePolicy = policy
        pipeline.limits = renderLimits
        pipeline.diskCache = try CacheDirectory.open(flag: cache, disabled: false)
        // Jobs in flight beyond the CPU threads overlap Redis round trips and downloads; the pixel
        // work never runs on more threads than the cores the process may use, unless told to.
        pipeline.maxConcurrentProcessing = cpuThreads

        let visibility = Duration.milliseconds(Int64((visibilityTimeout * 1000).rounded()))
        let s3Configuration = try s3.configuration()
        // Directories go to the volume; with a bucket allowed, `s3://` destinations to the buckets.
        let sinks = try s3Outputs.sink(volume: VolumeSink(roots: roots), configuration: s3Configuration, pool: S3OutputOptions.pool)
        var worker = WorkerConfiguration(
            name: name ?? WorkerConfiguration.defaultName, concurrency: jobsInFlight,
            gracePeriod: .milliseconds(Int64((gracePeriod * 1000).rounded())),
            retryBackoff: Backoff(initial: Self.duration(seconds: retryBase), cap: Self.duration(seconds: retryCap)),
            outputs: sinks.outputs, processors: catalog.processors, version: DarkroomBuild.version)
        worker.reserveAhead = reserveAhead
        worker.modules = catalog.moduleVersions
        worker.formats = catalog.coders.encoders.map(\.format.rawValue)
        // A worker with the HEIC module offers `decode:heic`, so a job handed back for it finds it.
        for format in Capabilities.moduleDecodedFormats where catalog.coders.decodes(ImageFormat(rawValue: format)) {
            worker.features.insert(Capabilities.decode(format))
        }
        // A worker with a bucket allowed fetches `s3://` sources: jobs naming one require it.
        // It writes `s3://` outputs too (`output:s3`). Each bucket it allows is a capability of
        // its own (`s3:ALIAS@BUCKET`), so a job is handed only to a worker that allows its buckets.
        if !s3Configuration.allowedBuckets.isEmpty {
            worker.features.insert(Capabilities.s3Source)
            worker.features.insert(Capabilities.s3Output)
            worker.features.formUnion(s3Configuration.offeredBucketCapabilities)
        }
        // nil file roots read any file: advertised as the root of the file system.
        worker.fileRoots = policy.fileRoots ?? ["/"]
        worker.outputRoots = roots
        let heartbeat = heartbeatFile.map { HeartbeatFile(path: PathResolver.absolute($0, from: workingDirectory)) }
        try heartbeat?.create()
        return Settings(
            worker: worker, queue: JobQueueConfiguration(visibilityTimeout: visibility, maxAttempts: maxAttempts),
            pipeline: pipeline, redisURL: try redis.url(), keyPrefix: try redis.keyPrefix(), logLevel: level,
            heartbeat: heartbeat, outputRoots: roots, s3Sink: sinks.s3)
    }

    /// Seconds from a validated flag as a `Duration`, to the millisecond.
    static func duration(seconds: Double) -> Duration { .milliseconds(Int64((seconds * 1000).rounded())) }
}
