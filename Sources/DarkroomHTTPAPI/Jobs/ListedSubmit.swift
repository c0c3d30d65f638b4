import DarkroomClient
import DarkroomQueue
import DarkroomS3

/// What a listed submit (`JobRoutes.submitListed`) has enqueued so far, page by page: counts and
/// the report summed, the jobs written out in the request kept for the answer, the listed ones
/// only counted, so memory holds one page however large the prefix.
struct ListedSubmit {
    /// One prepared and enqueued chunk.
    struct Chunk {
        var prepared: PreparedJobs
        var report: EnqueueReport
    }

    /// The most jobs the request's patterns may add (`APIConfiguration.maxListedJobs`).
    let limit: Int
    /// Every job enqueued so far.
    private(set) var count = 0
    /// Jobs listed from patterns, of `count`.
    private(set) var listedCount = 0
    private(set) var report = EnqueueReport()
    /// The jobs whose sources the request wrote out.
    private(set) var written: [Job] = []
    /// Each note once, in the order first seen.
    private(set) var notes: [String] = []
    var patterns: [ListedPattern] = []

    init(limit: Int) { self.limit = limit }

    /// Throws `api.too-many-jobs` when `page` more listed jobs would pass the limit, before they
    /// are prepared: the listing stops there.
    func admit(_ page: Int, pattern: S3KeyPattern) throws(APIError) {
        guard listedCount + page > limit else { return }
        throw APIError(
            .tooManyJobs,
            "the prefixes and globs of this request match more than \(limit) objects (at \(pattern)); list at most \(limit) per request — narrower prefixes in several requests — or use darkroom enqueue"
        )
    }

    mutating func add(_ chunk: Chunk, listed: Bool) {
        count += chunk.prepared.jobs.count
        if listed { listedCount += chunk.prepared.jobs.count } else { written += chunk.prepared.jobs }
        report.added += chunk.report.added
        report.known += chunk.report.known
        for elsewhere in chunk.report.knownElsewhere { report.addElsewhere(elsewhere.batch, count: elsewhere.count) }
        for note in chunk.prepared.notes where !notes.contains(note) { notes.append(note) }
    }
}

/// A listed submit's failure after some of its pages were enqueued: answered as `error` would be,
/// with `note` (`api.partly-enqueued`: how many jobs, which batch) as one more record.
struct PartlyEnqueued: Error {
    var error: any Error
    var note: APIError
}
