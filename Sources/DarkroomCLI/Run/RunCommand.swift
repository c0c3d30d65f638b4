import ArgumentParser
import DarkroomCache
import DarkroomClient
import DarkroomCodecs
import DarkroomCore
import DarkroomOutput
import DarkroomPipeline
import DarkroomQueue
import DarkroomS3
import DarkroomSources
import DarkroomSystem
import DarkroomWorker
import Foundation
import Logging

/// `darkroom run SOURCES… | --from FILE -p CHAIN --out DIR`: the distributed machinery in one
/// process — an in-memory queue, one worker, the same events — with no Redis.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Process sources in-process (embedded mode, no Redis) through the queue and workers.",
        discussion: """
            Embedded mode: the jobs go through an in-memory queue and an in-process worker, exactly as \
            they would through Redis and `darkroom worker` (same retries, events and output naming), \
            without any server. Results are written into --out DIR, or as objects under --out \
            s3://[ALIAS@]BUCKET/PREFIX/ (a bucket allowed with --allow-bucket; each output's URL and ETag \
            are reported), named by --name (default \
            {stem}.{ext}: the source's base name with the output extension); when two jobs would write one \
            name, the later gets {stem}-{chain}.{ext} (with --name, or when that clashes too, the run is \
            refused before it starts).

            --from FILE (- reads standard input) holds one job per line: a bare source, or a JSON object \
            with keys source, chain, format, quality, id, name (a job's own "output" is not used: \
            everything goes to --out).

            Transient failures (HTTP 5xx, timeouts) are retried with backoff up to --max-attempts. \
            Prints a progress bar on a terminal and a one-line summary; --json prints one JSON record \
            per job on standard output instead (the summary then goes to standard error). \
            Exit status: 0 when every job succeeded, 1 when any failed, 2 for bad usage.
            """
    )

    @OptionGroup
    var jobList: JobListOptions

    @Option(name: .customLong("out"), help: ArgumentHelp("Output directory (created if missing), or s3://[ALIAS@]BUCKET/PREFIX/.", valueName: "dir"))
    var outputDirectory: String?

    @Option(name: [.customShort("j"), .long], help: "Jobs run at once (default: the number of cores; 4x that with network sources).")
    var concurrency: Int?

    @Option(help: "Output format: jpeg, png, webp or avif (default: keep the source's).")
    var format: String?

    @Option(help: "Quality 1-100 for JPEG, lossy WebP and AVIF (default 80).")
    var quality: Int?

    @Flag(
        name: .customLong("first-frame-only"),
        help: "Process only the first frame of an animated GIF or WebP, as a still image (default: every frame, into an animated WebP).")
    var firstFrameOnly = false

    @Option(help: "Most attempts per job when it fails transiently.")
    var maxAttempts: Int = 3

    @Flag(help: "Print one JSON record per job on standard output.")
    var json = false

    @OptionGroup
    var keep: KeepOptions

    @OptionGroup
    var placeholders: PlaceholderOptions

    @OptionGroup
    var rendering: LocalRenderOptions

    func run() async throws {
        let jobs: [Job]
        let directory: String
        let pipeline: ImagePipeline
        var workerConfiguration: WorkerConfiguration
        let diskCache: DiskCache?
        do {
            // Checked first: a bad limit flag fails before a job list is read.
            let renderLimits = try rendering.limits.renderLimits()
            // A bucket is checked before any source is listed or read: a refused one costs nothing.
            let bucketOutputs = try await bucketSink()
            let catalog = rendering.plugins.loadCatalog()
            (jobs, directory) = try await plan(processors: catalog.processors, formats: catalog.coders)
            let cores = concurrency ?? Cores.count
            let configuration = try rendering.pipelineConfiguration(renderLimits: renderLimits, cores: cores, catalog: catalog)
            diskCache = configuration.diskCache
            if bucketOutputs == nil {
                do { try FileIO.createDirectory(directory) } catch { throw UsageFailure("\(error)") }
            }
            let hasNetworkSources = jobs.contains { ["http", "https", "s3"].contains(SourceReference($0.source).scheme) }
            pipeline = ImagePipeline(configuration: configuration)
            workerConfiguration = WorkerConfiguration(
                name: "run:\(ProcessInfo.processInfo.processIdentifier)",
                // As `process` does: downloads wait on the network, so more jobs than cores may be in flight.
                concurrency: min(max(jobs.count, 1), hasNetworkSources && concurrency == nil ? cores * 4 : cores),
                gracePeriod: .seconds(5),
                retryBackoff: Backoff(initial: .milliseconds(500), cap: .seconds(10)),
                releaseDelay: .seconds(1), reserveWait: .milliseconds(250),
                // The in-memory queue dies with this process: there is no acknowledgement a crash could
                // outlive, so outputs are written like `darkroom process` writes them, without fsync.
                outputs: bucketOutputs ?? VolumeSink(roots: [directory], durable: false), processors: catalog.processors, version: DarkroomBuild.version)
            workerConfiguration.modules = catalog.moduleVersions
            // Offered as `format:<name>`: jobs for AVIF or a plugin's format require it.
            workerConfiguration.formats = catalog.coders.encoders.map(\.format.rawValue)
            let s3Configuration = try rendering.s3.configuration()
            if !s3Configuration.allowedBuckets.isEmpty {
                workerConfiguration.features.insert(Capabilities.s3Source)
                workerConfiguration.features.formUnion(s3Configuration.offeredBucketCapabilities)
            }
            // Jobs with an `s3://` output require it (`Capabilities.outputRequirements`).
            if bucketOutputs != nil { workerConfiguration.features.insert(Capabilities.s3Output) }
        } catch let failure as UsageFailure {
            throw failure.exit()
        }

        let queue = MemoryQueue(configuration: JobQueueConfiguration(maxAttempts: maxAttempts, eventRetention: max(100_000, jobs.count * 4)))
        let logger = Logger(label: "darkroom.run") { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        let worker = Worker(queue: queue, pipeline: pipeline, configuration: workerConfiguration, logger: logger)
        let reporter = RunReporter(jobs: jobs, json: json, outputDirectory: directory)
        let cursor = try await queue.latestEventCursor()
        // Largest first: the queue hands jobs out in the order they were enqueued.
        _ = try await queue.enqueue(LargestFirst.ordered(jobs, workingDirectory: FileManager.default.currentDirectoryPath) { $0.source })
        let running = Task { try await worker.run() }
        let outcome = try await reporter.follow(queue, after: cursor)
        worker.shutdownGracefully()
        try? await running.value
        diskCache?.flushStatistics()
        reporter.printSummary(outcome)
        if outcome.failed > 0 { throw ExitCode(1) }
    }

    /// The output sink when `--out` names a bucket (nil for a directory), its bucket allowed.
    private func bucketSink() async throws(UsageFailure) -> (any OutputSink)? {
        try LocalOutputPath.check(outputDirectory, flag: "--out", command: "run")
        guard let outputDirectory, BucketOutput.isBucket(outputDirectory) else { return nil }
        return try await BucketOutput.sink(for: outputDirectory, flag: "--out", s3: rendering.s3, outputs: rendering.s3Outputs)
    }

    /// The validated jobs and the absolute output directory (or the bucket prefix as given); every mistake is a `UsageFailure`.
    private func plan(processors: ProcessorRegistry, formats: CoderRegistry) async throws -> ([Job], String) {
        guard let outputDirectory, !outputDirectory.isEmpty else { throw UsageFailure("say where to write: --out DIR") }
        try LocalOutputPath.check(outputDirectory, flag: "--out", command: "run")
        guard concurrency.map({ $0 >= 1 }) ?? true else { throw UsageFailure("--concurrency must be at least 1") }
        if let quality, !(1...100).contains(quality) { throw UsageFailure("--quality must be 1…100 (got \(quality))") }
        guard (1...100).contains(maxAttempts) else { throw UsageFailure("--max-attempts must be 1…100 (got \(maxAttempts))") }
        let workingDirectory = FileManager.default.currentDirectoryPath
        let directory = BucketOutput.isBucket(outputDirectory) ? outputDirectory : PathResolver.absolute(outputDirectory, from: workingDirectory)
        // `s3://` prefixes and globs are listed here, whole: the run keeps every job for its report.
        var requests = try await S3SourcePatterns.expand(try jobList.requests(verb: "run"), options: rendering.s3)
        // Everything goes to --out: the embedded worker writes nowhere else.
        for index in requests.indices { requests[index].output = nil }
        var defaults = EnqueueDefaults(
            chain: jobList.chain, format: format, quality: quality, output: directory,
            // A batch of its own per run: the worker fails a job whose name another job of the same
            // batch wrote, and an earlier run's files are another batch's.
            batch: "run-" + JobID.make().rawValue, workingDirectory: workingDirectory, firstFrameOnly: firstFrameOnly,
            name: jobList.name)
        defaults.keep = try keep.names()
        defaults.placeholders = try placeholders.names()
        defaults.renditions = try jobList.renditionList()
        var validator = ChainValidator(registry: processors.validationOnly, workers: { [] })
        switch try await EnqueuePlanner.plan(
            requests, defaults: defaults, validator: &validator,
            listName: jobList.listName, formats: EnqueueFormats(local: formats.outputFormats))
        {
        case .jobs(let jobs):
            return (jobs, directory)
        case .problems(let problems):
            for problem in problems.dropLast() {
                for (index, line) in problem.lines.enumerated() { StandardError.line(index == 0 ? "darkroom: \(line)" : line) }
            }
            throw UsageFailure((problems.last?.lines ?? ["bad job list"]).joined(separator: "\n"))
        }
    }
}
