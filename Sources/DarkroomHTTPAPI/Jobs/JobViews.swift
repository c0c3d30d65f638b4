import DarkroomClient
import DarkroomFleetStatus
import DarkroomQueue
import DarkroomSystem
import Foundation

/// The answer to a submit: the batch, and each job's id in request order.
struct SubmitAnswer: Encodable {
    struct Entry: Encodable {
        var id: String
        var source: String
        var chain: String
    }

    struct Elsewhere: Encodable {
        var batch: String
        var count: Int
    }

    var batch: String
    /// Jobs new to the queue.
    var added: Int
    /// Jobs whose id the queue already knew (not queued again).
    var known: Int
    /// Of the known jobs, those another batch holds (counted there, not in `batch`).
    var knownElsewhere: [Elsewhere]
    /// Every job of the request: `jobs.count`, and the jobs listed from prefixes and globs.
    var count: Int
    /// The jobs whose sources the request wrote out (not those listed from a prefix or glob:
    /// `GET /v1/batches/{batch}/jobs` pages through those).
    var jobs: [Entry]
    /// Processors or formats accepted because live workers offer them.
    var notes: [String]
    /// What each prefix or glob listed; absent when the request had none.
    var patterns: [ListedPattern]?

    init(jobs: [Job], report: EnqueueReport, notes: [String]) {
        batch = jobs.first?.batch ?? ""
        added = report.added
        known = report.known
        knownElsewhere = report.knownElsewhere.map { Elsewhere(batch: $0.batch, count: $0.count) }
        count = jobs.count
        self.jobs = jobs.map { Entry(id: $0.id.rawValue, source: $0.source, chain: $0.chain) }
        self.notes = notes
    }
}

/// One prefix or glob of a `POST /v1/batches` (`S3Listing.Statistics`): `matched` jobs were made
/// of it; `skipped` keys matched but no job could fetch them (a `.`/`..` segment, a control character).
struct ListedPattern: Encodable {
    var pattern: String
    var pages: Int
    var listed: Int
    var matched: Int
    var skipped: Int
}

/// `GET /v1/jobs/{id}`: the job's state from its latest event (`FleetClient.lookup`).
struct JobView: Encodable {
    var id: String
    var batch: String?
    /// `running`, `retrying`, or the terminal event's type: `succeeded`, `failed`, `dead`, `cancelled`.
    var state: String
    /// The attempt the latest event is about.
    var attempt: Int?
    var worker: String?
    /// When the latest event happened.
    var updatedAt: Timestamp
    /// On a terminal event: the source (redacted) and the canonical chain.
    var source: String?
    var chain: String?
    /// A succeeded job's result: output location (a path, or an `s3://` URL with its `etag`),
    /// format, size, SHA-256, cache outcome, ms per stage.
    var result: JobResult?
    /// A failed, retrying or dead job's error.
    var error: JobError?
    /// Every attempt's error, oldest first: `{attempt, code, message, at}`; empty for a job that
    /// never failed. The newest `JobErrorHistory.capacity` are kept.
    var errors: [JobAttemptError]
    /// How many older errors were dropped from `errors`; absent when none were.
    var errorsDropped: Int?
    /// On a terminal event of a job with metadata: the metadata object (written back in the same
    /// canonical text the record holds).
    var metadata: JobMetadata.Value?
    /// Whether the output is served by `GET /v1/jobs/{id}/output` (not one in object storage).
    var hasOutput: Bool
    /// True when the job's terminal event has been trimmed from the event stream and the view
    /// comes from its finished record (state, batch, attempt, time, error code): no worker,
    /// result, source or chain (the coordinator's event log has them). Absent otherwise.
    var eventTrimmed: Bool?
    /// With `eventTrimmed`, a succeeded job's number of outputs (one per rendition).
    var outputs: Int?

    /// The view of `detail`; nil for `notFound`.
    init?(_ detail: JobDetail, id: JobID) {
        let event: JobEvent
        switch detail.status {
        case .notFound: return nil
        case .running(let latest):
            event = latest
            state = "running"
        case .retrying(let latest):
            event = latest
            state = "retrying"
        case .ended(let latest):
            event = latest
            state = latest.type.rawValue
        }
        self.id = id.rawValue
        batch = event.batch
        attempt = event.attempt
        worker = event.worker
        updatedAt = event.at
        source = event.source
        chain = event.chain
        result = event.result
        error = event.error
        errors = detail.errors.errors
        errorsDropped = detail.errors.dropped > 0 ? detail.errors.dropped : nil
        metadata = event.metadata.flatMap { try? RecordJSON.decoder().decode(JobMetadata.Value.self, from: Data($0.utf8)) }
        // An object-storage output is read from its bucket (`result.output`, `result.etag`).
        hasOutput = event.type == .succeeded && event.result?.output.map { !Capabilities.isObjectStorageDestination($0) } == true
        if let trimmed = detail.trimmed {
            eventTrimmed = true
            outputs = trimmed.outputs
        }
    }
}

/// `GET /v1/batches/{batch}`: its counts (`BatchProgress`'s fields), what remains, whether it is
/// complete, when it began and ended (`BatchTimes`), and — with a coordinator registered — its
/// running and queued jobs and the p50/p95 time from a job's start to its end (`BatchProjection`).
struct BatchView: Encodable {
    var batch: String
    var progress: BatchProgress
    var times: BatchTimes?
    var projection: BatchProjection?

    private enum Key: String, CodingKey {
        case batch, remaining, complete, enqueuedAt, endedAt, seconds, running, queued, p50Milliseconds, p95Milliseconds
    }

    func encode(to encoder: any Encoder) throws {
        try progress.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(batch, forKey: .batch)
        try container.encode(progress.remaining, forKey: .remaining)
        try container.encode(progress.isComplete, forKey: .complete)
        try container.encodeIfPresent(times?.enqueuedAt, forKey: .enqueuedAt)
        try container.encodeIfPresent(times?.endedAt, forKey: .endedAt)
        try container.encodeIfPresent(times?.duration.map(\.inSeconds), forKey: .seconds)
        try container.encodeIfPresent(projection?.running, forKey: .running)
        try container.encodeIfPresent(projection?.queued, forKey: .queued)
        try container.encodeIfPresent(projection?.p50Milliseconds, forKey: .p50Milliseconds)
        try container.encodeIfPresent(projection?.p95Milliseconds, forKey: .p95Milliseconds)
    }
}
