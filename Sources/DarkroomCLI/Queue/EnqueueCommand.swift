import ArgumentParser
import DarkroomClient
import DarkroomQueue
import DarkroomSystem
import Foundation

/// `darkroom enqueue SOURCES… | --from FILE -p CHAIN …`: queues jobs in Redis for the workers.
struct EnqueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enqueue",
        abstract: "Queue jobs in Redis for the workers.",
        discussion: """
            Sources are paths, http(s):// URLs or data: URIs. Workers run elsewhere, so relative paths \
            (and --out) are made absolute here: they must be valid on the workers' shared volume, and \
            inside the workers' --allow-file-root (and --allow-output-root) directories.

            --from FILE (- reads standard input) holds one job per line: a bare source, or a JSON object \
            with keys source (required), chain, format, quality, priority, id, output, firstFrameOnly, \
            name, each overriding the flag for that job. Blank lines and lines starting with # are skipped. Any bad line is \
            reported with its number, and then nothing is enqueued.

            The chain is checked before anything is sent: against the processors built into this \
            darkroom, plus those live workers advertise. A processor only workers have is checked \
            against the schema they advertise, as a built-in one is (or, from workers that advertise \
            no schemas, accepted as written), with a note. A bad chain enqueues nothing.

            Output files are named by --name (default {stem}.{ext}). Two jobs of one request that would \
            write one path are settled before anything is sent: under the default, the later gets \
            {stem}-{chain}.{ext}; under a --name or a "name" key, or when that is taken too, nothing is \
            enqueued and both jobs are named.

            A job whose id the queue already knows (for 7 days) is skipped, so re-running an \
            interrupted enqueue with the same ids ("id" keys or --id-from-source) adds only what is \
            missing. Prints `batch ID: N jobs enqueued (M already queued)`; follow it with \
            `darkroom wait ID`.

            Exit status: 0 enqueued, 2 bad usage (nothing enqueued), 3 Redis unreachable.
            """
    )

    @OptionGroup
    var jobList: JobListOptions

    @Option(help: "Output format: jpeg, png or webp (default: keep the source's).")
    var format: String?

    @Option(help: "Quality 1-100 for JPEG and lossy WebP (default: the worker's).")
    var quality: Int?

    @Flag(
        name: .customLong("first-frame-only"),
        help: "Process only the first frame of an animated GIF or WebP, as a still image (default: every frame, into an animated WebP).")
    var firstFrameOnly = false

    @Option(help: ArgumentHelp("The batch to enqueue into; enqueueing into it again adds to it. Default: a new id.", valueName: "name"))
    var batch: String?

    @Option(help: "high, normal or low: every ready high job is handed out before any normal one, and normal before low.")
    var priority: String = "normal"

    @Option(help: ArgumentHelp("Hold the jobs this many seconds before any worker may take them.", valueName: "seconds"))
    var delay: Double?

    @Option(
        name: .customLong("out"), help: ArgumentHelp("Directory on the shared volume the workers write each result into (besides the cache).", valueName: "dir")
    )
    var output: String?

    @Flag(
        help:
            "Use each (absolute) source as its job id: enqueueing a source again is then a no-op while the id is remembered (7 days), whatever its chain; `darkroom get SOURCE` finds it."
    )
    var idFromSource = false

    @Flag(
        help:
            "Enqueue jobs no live worker would take now: a capability (a processor, a job feature) none offers, a source or --out outside every live worker's roots, a missing source file. They wait for a worker that takes them, or fail on one."
    )
    var allowUnoffered = false

    @Flag(help: "Print each job's id and source (tab-separated) before the summary.")
    var printIds = false

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    @OptionGroup(title: "Plugins")
    var plugins: PluginOptions

    func run() async throws {
        let defaults: EnqueueDefaults
        let requests: [JobRequest]
        do {
            defaults = try makeDefaults()
            requests = try readRequests()
        } catch {
            throw error.exit()
        }
        try await QueueCommandRunner.run(redis) { queue in
            try await self.enqueue(requests, defaults: defaults, on: queue)
        }
    }

    /// Validates everything, then enqueues in chunks with a progress bar, then prints the summary.
    func enqueue(_ requests: [JobRequest], defaults: EnqueueDefaults, on queue: any FleetClient.Queue) async throws {
        let catalog = plugins.loadCatalog()
        // The client links no image code: it gets this binary's processors as specs and its
        // encoders as format names, plugin modules' included.
        var client = FleetClient(commandQueue: queue, processors: catalog.processors.validationOnly)
        client.formats = catalog.coders.outputFormats
        let prepared: PreparedJobs
        do {
            prepared = try await client.prepare(
                requests, defaults: defaults,
                listName: jobList.listName)
        } catch let refusal as EnqueueRefusal {
            for problem in refusal.problems {
                let lines = problem.lines
                StandardError.line("darkroom: " + lines[0])
                for line in lines.dropFirst() { StandardError.line(line) }
            }
            let limit = EnqueuePlanner.maxProblems
            if refusal.problems.count >= limit { StandardError.line("darkroom: stopped after \(limit) problems") }
            StandardError.line("darkroom: nothing was enqueued")
            throw QueueExit.usage
        }
        for note in prepared.notes { StandardError.line("darkroom: " + note) }
        let jobs = prepared.jobs

        let bar = ProgressBar(total: jobs.count, title: "enqueue \(defaults.batch)")
        let sent = Locked(0)
        let added: Int
        do {
            added = try await client.enqueue(prepared) { count in
                sent.withLock { $0 = count }
                bar.update(finished: count, failed: 0)
            }
        } catch {
            bar.clear()
            let done = sent.withLock { $0 }
            if done > 0 {
                StandardError.line(
                    "darkroom: \(done) of \(jobs.count) jobs were enqueued into batch \(defaults.batch) before the failure; run the same command again with --batch \(defaults.batch) and the same ids (\"id\" keys or --id-from-source) to add only the rest"
                )
            }
            throw error
        }
        bar.clear()
        if printIds {
            for job in jobs { StandardOutput.line("\(job.id.rawValue)\t\(EventFormatting.sanitized(job.source))") }
        }
        let summary = EnqueueSummary(batch: defaults.batch, jobs: jobs.count, enqueued: added, skipped: jobs.count - added)
        StandardOutput.line(json ? try summary.json() : summary.text)
    }

    func makeDefaults() throws(UsageFailure) -> EnqueueDefaults {
        guard let priority = JobPriority(rawValue: priority.lowercased()) else {
            throw UsageFailure("--priority must be high, normal or low (got '\(priority)')")
        }
        if let quality, !(1...100).contains(quality) { throw UsageFailure("--quality must be 1…100 (got \(quality))") }
        var delayDuration: Duration?
        if let delay {
            guard delay.isFinite, delay >= 0, delay <= 365 * 86_400 else {
                throw UsageFailure("--delay must be 0…31536000 seconds (got \(delay))")
            }
            delayDuration = .milliseconds(Int64((delay * 1000).rounded()))
        }
        if let batch, JobID(rawValue: batch) == nil {
            throw UsageFailure("--batch must be 1–200 bytes without control characters")
        }
        if let output, output.isEmpty { throw UsageFailure("--out needs a directory") }
        var defaults = EnqueueDefaults(
            chain: jobList.chain, format: format, quality: quality, priority: priority, delay: delayDuration,
            output: output, idFromSource: idFromSource, batch: batch ?? JobID.make().rawValue,
            workingDirectory: FileManager.default.currentDirectoryPath, firstFrameOnly: firstFrameOnly, name: jobList.name)
        defaults.allowUnoffered = allowUnoffered
        return defaults
    }

    func readRequests() throws(UsageFailure) -> [JobRequest] {
        try jobList.requests(verb: "enqueue", failureSuffix: "; nothing was enqueued")
    }
}

/// What `enqueue` prints: `batch ID: N jobs enqueued (M already queued)`, or as JSON
/// `{"batch","enqueued","jobs","skipped"}`.
struct EnqueueSummary: Encodable, Equatable {
    var batch: String
    /// Jobs in the request (after parsing), duplicates included.
    var jobs: Int
    /// New jobs the queue accepted.
    var enqueued: Int
    /// Jobs whose id the queue already knew (or repeated within this request).
    var skipped: Int

    var text: String {
        "batch \(EventFormatting.sanitized(batch)): \(enqueued) job\(enqueued == 1 ? "" : "s") enqueued (\(skipped) already queued)"
    }

    func json() throws -> String {
        try JSONText.line(self)
    }
}
