import DarkroomClient
import DarkroomQueue
import DarkroomRedis
import DarkroomS3
import DarkroomSystem

extension EnqueueCommand {
    /// `enqueue` of sources among which are `s3://` prefixes or globs (docs/object-storage.md#sources):
    /// the plain sources are sent first, then each pattern's objects one listing page at a time —
    /// prepared (checked, named, refused or not) and enqueued before the next page is asked for, so
    /// a million-object prefix is never held in memory. A page that is refused stops the listing;
    /// what earlier pages enqueued stays enqueued, and the message says how many.
    func enqueueListed(_ requests: [JobRequest], defaults: EnqueueDefaults, on queue: RedisStreamsQueue) async throws {
        // Each pattern's listing, with its request: a `--from` line's keys apply to every object.
        let listings = try requests.filter { S3KeyPattern.isPattern($0.source) }.map { request in
            (request, try S3SourcePatterns.listing(request.source, options: s3))
        }
        let catalog = plugins.loadCatalog()
        var client = FleetClient(commandQueue: queue, processors: catalog.processors.validationOnly)
        client.formats = catalog.coders.outputFormats
        var total = EnqueueReport()
        var jobs = 0
        var notes: Set<String> = []
        func send(_ chunk: [JobRequest]) async throws {
            let prepared: PreparedJobs
            do {
                prepared = try await client.prepare(chunk, defaults: defaults, listName: nil)
            } catch let refusal as EnqueueRefusal {
                for problem in refusal.problems {
                    for (index, line) in problem.lines.enumerated() { StandardError.line(index == 0 ? "darkroom: \(line)" : line) }
                }
                throw UsageFailure("\(total.added) jobs were enqueued into batch \(defaults.batch) before this page; the rest were not")
            }
            for note in prepared.notes where notes.insert(note).inserted { StandardError.line("darkroom: " + note) }
            try await Self.subscribeWebhooks(prepared.jobs, client: queue.client, prefix: queue.keyPrefix)
            let report = try await client.enqueueReport(prepared)
            jobs += prepared.jobs.count
            total.added += report.added
            total.known += report.known
            for elsewhere in report.knownElsewhere { total.addElsewhere(elsewhere.batch, count: elsewhere.count) }
            if printIds {
                for job in prepared.jobs { StandardOutput.line("\(job.id.rawValue)\t\(EventFormatting.sanitized(job.source))") }
            }
        }
        let plain = requests.filter { !S3KeyPattern.isPattern($0.source) }
        if !plain.isEmpty { try await send(plain) }
        for (request, listing) in listings {
            let statistics = try await S3SourcePatterns.list(listing) { sources in
                try await send(
                    sources.map { source in
                        var copy = request
                        copy.source = source.description
                        return copy
                    })
            }
            if statistics.matched == 0 {
                StandardError.line("darkroom: \(listing.pattern) matches no object (\(statistics.listed) listed)")
            }
        }
        guard jobs > 0 else { throw UsageFailure("nothing was enqueued: no source matched") }
        let summary = EnqueueSummary(batch: defaults.batch, jobs: jobs, report: total)
        StandardOutput.line(json ? try summary.json() : summary.text)
    }
}
