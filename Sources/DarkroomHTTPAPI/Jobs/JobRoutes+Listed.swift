import DarkroomAPIKeys
import DarkroomClient
import DarkroomQueue
import DarkroomS3
import Hummingbird

extension JobRoutes {
    /// `POST /v1/batches` with `s3://` prefixes or globs among its sources
    /// (docs/http-api.md#prefixes-and-globs), listed with `darkroom enqueue`'s code (`S3Listing`):
    ///
    /// - every pattern is checked before anything is listed or enqueued: its bucket allowed by
    ///   `APIConfiguration.s3` (else 422 `source.refused` naming it), its literal directory
    ///   covered by the key's source grants (else 403 `apikey.source-not-granted`);
    /// - the jobs written out are sent first, then each pattern's objects a page at a time, each
    ///   page checked (every job against the grants too) and enqueued before the next is asked
    ///   for, so memory holds one page, never the prefix;
    /// - past `APIConfiguration.maxListedJobs` jobs, or when the client has gone
    ///   (`clientConnected`), the listing stops.
    ///
    /// Every job goes into the batch the body names, or one new batch: a batch derived from the
    /// ids would need every page's ids before the first is sent. A failure after a page was
    /// enqueued answers as the failure would, with an `api.partly-enqueued` record saying how many
    /// jobs are in which batch (`PartlyEnqueued`); repeating the request with `idFromSource` and
    /// that batch adds only the rest.
    func submitListed(
        _ submission: JobSubmission, key: APIKey, clientConnected: @Sendable () async -> Bool
    ) async throws -> (HTTPResponse.Status, [UInt8]) {
        let check = key.jobGrantCheck()
        var listings: [(location: String, request: JobRequest, listing: S3Listing)] = []
        for (index, request) in submission.requests.enumerated() where S3KeyPattern.isPattern(request.source) {
            let location = "jobs:\(index + 1)"
            // One id for every object a pattern matches would make them one job: each listed job
            // gets its own (from its key with `idFromSource`, else a new one).
            guard request.id == nil else {
                throw EnqueueRefusal(problems: [
                    JobSubmission.problem(
                        "'id' names one job, but \(request.source) lists many: drop 'id' (use \"idFromSource\": true for ids from the keys)",
                        location: location)
                ])
            }
            let listing: S3Listing
            do {
                listing = try S3Listing(request.source, configuration: configuration.s3, maxKeys: configuration.s3ListPageSize)
            } catch {
                let code = error.sourceError(for: request.source).code.rawValue
                throw EnqueueRefusal(problems: [EnqueueProblem(code: code, location: location, message: error.message)])
            }
            do { try check.permits(source: listing.pattern.literalDirectory) } catch { throw KeyRefusal(error: error, location: location) }
            listings.append((location, request, listing))
        }
        let batch = submission.defaults.batch
        var sent = ListedSubmit(limit: configuration.maxListedJobs)
        do {
            let plain = submission.requests.filter { !S3KeyPattern.isPattern($0.source) }
            if !plain.isEmpty { try await sent.add(try await prepareAndEnqueue(plain, submission, key: key), listed: false) }
            for (location, request, listing) in listings {
                let statistics: S3Listing.Statistics
                do {
                    statistics = try await listing.forEachPage { page in
                        guard await clientConnected() else { throw CancellationError() }
                        try sent.admit(page.count, pattern: listing.pattern)
                        let requests = page.map { source in
                            var copy = request
                            copy.source = source.description
                            return copy
                        }
                        try sent.add(try await prepareAndEnqueue(requests, submission, key: key), listed: true)
                    }
                } catch let error as S3Error {
                    let message = "cannot list \(listing.pattern): \(error.message)"
                    if error.isTransient { throw APIError(.unavailable, message + "; try again") }
                    let code = error.sourceError(for: request.source).code.rawValue
                    throw EnqueueRefusal(problems: [EnqueueProblem(code: code, location: location, message: message)])
                }
                sent.patterns.append(
                    ListedPattern(
                        pattern: listing.pattern.text, pages: statistics.pages, listed: statistics.listed, matched: statistics.matched,
                        skipped: statistics.skipped))
            }
        } catch  where sent.count > 0 {
            throw PartlyEnqueued(
                error: error,
                note: APIError(
                    .partlyEnqueued,
                    "\(sent.count) jobs were enqueued into batch '\(SafeText.sanitized(String(batch.prefix(200))))' before this; the rest were not. Send the request again with that batch and idFromSource to add only the rest"
                ))
        }
        guard sent.count > 0 else {
            let patterns = sent.patterns.map { "\($0.pattern) (\($0.listed) listed)" }.joined(separator: ", ")
            throw EnqueueRefusal(problems: [JobSubmission.problem("no object matches \(patterns): nothing was enqueued", location: nil)])
        }
        var answer = SubmitAnswer(jobs: sent.written, report: sent.report, notes: sent.notes)
        answer.batch = batch
        answer.count = sent.count
        answer.patterns = sent.patterns
        return (sent.report.added > 0 ? .created : .ok, Array(try RecordJSON.encoder().encode(answer)))
    }

    /// One chunk of a listed submit, prepared as `darkroom enqueue` prepares jobs and enqueued for
    /// `key` (`enqueue(_:key:locate:)`).
    private func prepareAndEnqueue(_ requests: [JobRequest], _ submission: JobSubmission, key: APIKey) async throws -> ListedSubmit.Chunk {
        let prepared = try await client.prepare(requests, defaults: submission.defaults, listName: "jobs")
        let report = try await enqueue(prepared, key: key, locate: false)
        return ListedSubmit.Chunk(prepared: prepared, report: report)
    }
}
