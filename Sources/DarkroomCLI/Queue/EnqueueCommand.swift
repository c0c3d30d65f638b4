import ArgumentParser
import DarkroomClient
import DarkroomQueue
import DarkroomS3
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
            missing. A skipped job stays counted in the batch it was first enqueued into, with its \
            outcome: enqueued again into that batch, `darkroom wait` on it reports the job; into \
            another batch, the summary names the batch that has it. Without --batch, when every job's \
            id is given the batch is derived from the ids (ids-DIGEST), so the same request lands in \
            the same batch. Prints `batch ID: N jobs enqueued (M already known: K in this batch, J in \
            batch OTHER)`; follow it with `darkroom wait ID`.

            Exit status: 0 enqueued, 2 bad usage (nothing enqueued), 3 Redis unreachable.
            """
    )

    @OptionGroup
    var jobList: JobListOptions

    @OptionGroup
    var keep: KeepOptions

    @OptionGroup
    var placeholders: PlaceholderOptions

    @Option(help: "Output format: jpeg, png, webp or avif (default: keep the source's).")
    var format: String?

    @Option(help: "Quality 1-100 for JPEG, lossy WebP and AVIF (default: the worker's).")
    var quality: Int?

    @Flag(
        name: .customLong("first-frame-only"),
        help: "Process only the first frame of an animated GIF or WebP, as a still image (default: every frame, into an animated WebP).")
    var firstFrameOnly = false

    @Option(
        help: ArgumentHelp(
            "The batch to enqueue into; enqueueing into it again adds to it. Default: a new id, or, when every job's id is given, one derived from the ids.",
            valueName: "name"))
    var batch: String?

    @Option(help: "high, normal or low: every ready high job is handed out before any normal one, and normal before low.")
    var priority: String = "normal"

    @Option(help: ArgumentHelp("Hold the jobs this many seconds before any worker may take them.", valueName: "seconds"))
    var delay: Double?

    @Option(
        name: .customLong("out"),
        help: ArgumentHelp(
            "Directory on the shared volume the workers write each result into (besides the cache), or a bucket prefix s3://[ALIAS@]BUCKET/PREFIX/.",
            valueName: "dir")
    )
    var output: String?

    @Flag(
        help:
            "Derive each job's id from its (absolute) source and what shapes its output (SOURCE#DIGEST of chain, format, quality, --first-frame-only, --out, --name): the same work enqueued again is a no-op while the id is remembered (7 days), another size of the source is a new job; `darkroom get SOURCE` finds the source's latest job."
    )
    var idFromSource = false

    @Flag(
        help:
            "Enqueue jobs no live worker would take now: a capability (a processor, a job feature) none offers, a source or --out outside every live worker's roots, a missing source file. They wait for a worker that takes them, or fail on one."
    )
    var allowUnoffered = false

    @Option(
        help: ArgumentHelp(
            "Notify this webhook endpoint (darkroom webhook add) when each job ends; it must exist.", valueName: "name"))
    var webhook: String?

    @Flag(help: "Print each job's id and source (tab-separated) before the summary.")
    var printIds = false

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    @OptionGroup(title: "Plugins")
    var plugins: PluginOptions

    @OptionGroup(title: "Object storage")
    var s3: S3Options

    func run() async throws {
        let defaults: EnqueueDefaults
        let requests: [JobRequest]
        do {
            defaults = try makeDefaults()
            requests = try readRequests()
        } catch {
            throw error.exit()
        }
        if requests.contains(where: { S3KeyPattern.isPattern($0.source) }) {
            // Listed page by page and sent as it is listed: see `enqueueListed`.
            try await QueueCommandRunner.run(redis) { queue in try await self.enqueueListed(requests, defaults: defaults, on: queue) }
            return
        }
        try await QueueCommandRunner.run(redis) { queue in
            try await self.enqueue(
                requests, defaults: defaults, on: queue,
                beforeEnqueue: { jobs in try await Self.subscribeWebhooks(jobs, client: queue.client, prefix: queue.keyPrefix) })
        }
    }

    /// Validates everything, then enqueues in chunks with a progress bar, then prints the summary.
    /// `beforeEnqueue` sees the final jobs before any is enqueued (webhooks are checked and
    /// subscribed there); it may throw to enqueue nothing.
    func enqueue(
        _ requests: [JobRequest], defaults: EnqueueDefaults, on queue: any FleetClient.Queue,
        beforeEnqueue: (([Job]) async throws -> Void)? = nil
    ) async throws {
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
        var jobs = prepared.jobs
        var batchName = defaults.batch
        if batch == nil, idFromSource || requests.allSatisfy({ $0.id != nil }) {
            // Every id is given, so the request names its batch too: repeated, it lands in the same
            // batch, and `enqueue && wait` reports the jobs' outcomes however often it runs.
            batchName = DerivedIDs.batch(for: jobs.map(\.id))
            for index in jobs.indices { jobs[index].batch = batchName }
        }

        try await beforeEnqueue?(jobs)
        let bar = ProgressBar(total: jobs.count, title: "enqueue \(batchName)")
        let sent = Locked(0)
        let report: EnqueueReport
        do {
            report = try await client.enqueueReport(PreparedJobs(jobs: jobs, notes: prepared.notes)) { count in
                sent.withLock { $0 = count }
                bar.update(finished: count, failed: 0)
            }
        } catch {
            bar.clear()
            let done = sent.withLock { $0 }
            if done > 0 {
                StandardError.line(
                    "darkroom: \(done) of \(jobs.count) jobs were enqueued into batch \(batchName) before the failure; run the same command again with --batch \(batchName) and the same ids (\"id\" keys or --id-from-source) to add only the rest"
                )
            }
            throw error
        }
        bar.clear()
        if printIds {
            for job in jobs { StandardOutput.line("\(job.id.rawValue)\t\(EventFormatting.sanitized(job.source))") }
        }
        let summary = EnqueueSummary(batch: batchName, jobs: jobs.count, report: report)
        if !jobs.isEmpty, report.added == 0, report.knownInBatch == 0, try await queue.batchProgress(batchName) == nil,
            let holder = report.knownElsewhere.first
        {
            StandardError.line(
                "darkroom: batch \(EventFormatting.sanitized(batchName)) holds none of these jobs, so `darkroom wait` cannot find it; they are counted where they were first enqueued (darkroom wait \(EventFormatting.sanitized(holder.batch)))"
            )
        }
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
        defaults.webhook = webhook
        defaults.keep = try keep.names()
        defaults.placeholders = try placeholders.names()
        defaults.renditions = try jobList.renditionList()
        return defaults
    }

    func readRequests() throws(UsageFailure) -> [JobRequest] {
        try jobList.requests(verb: "enqueue", failureSuffix: "; nothing was enqueued")
    }
}
