import DarkroomClient
import DarkroomFleetStatus
import DarkroomQueue

/// Where `get` looked for a job: what a job without events can mean depends on it.
enum JobSearch: Equatable {
    /// A coordinator is registered and has read the stream: its job projections (kept 7 days
    /// after a job's last event) and the events it has not folded yet.
    case projections
    /// The event stream alone, which keeps only its latest events. `coordinatorRegistered`: a
    /// coordinator is registered but has not read the stream yet.
    case stream(coordinatorRegistered: Bool)

    /// The search `FleetClient.lookup` makes given the queue's coordinator registration.
    init(_ registration: CoordinatorRegistration?) {
        self = registration?.checkpoint != nil ? .projections : .stream(coordinatorRegistered: registration != nil)
    }

    /// Why a job can have no events, for this search.
    var notFoundReasons: String {
        switch self {
        case .projections:
            "it is unknown, still queued, or its last event is more than 7 days old (the coordinator keeps a job's state that long)"
        case .stream(coordinatorRegistered: true):
            "it is unknown, still queued, or its events were trimmed (the coordinator has not read the stream yet, so only the stream was searched)"
        case .stream(coordinatorRegistered: false):
            "it is unknown, still queued, or its events were trimmed (no coordinator is registered, and the stream keeps about the last 100,000 events)"
        }
    }
}

/// Turns a job's status into its result, or a failure with the message `get` prints.
enum ResultFetch {
    struct Failure: Error, Equatable {
        var message: String
    }

    /// `searched` says where the lookup looked, which is what a job without events can mean.
    static func result(of status: JobStatus, job: JobID, searched: JobSearch) throws(Failure) -> JobResult {
        let name = "job \(EventFormatting.sanitized(job.rawValue))"
        switch status {
        case .ended(let event) where event.type == .succeeded:
            guard let result = event.result else {
                // Only a finished record answered: every worker's `succeeded` carries a result.
                throw failure(
                    "\(name) succeeded, but its event has been trimmed from the event stream and the coordinator keeps only a summary of it; its output is named in the coordinator's event log (--event-log)"
                )
            }
            guard let output = result.output, !output.isEmpty else {
                throw failure(
                    "\(name) succeeded, but its result was kept only in the worker's memory (no --out and no shared cache); run it again with --out DIR")
            }
            try refuseObjectStorage(output, etag: result.etag, name: name)
            return result
        case .ended(let event):
            var text = "\(name) did not succeed: it ended \(event.type.rawValue) at \(event.at.iso8601)"
            if let error = event.error { text += " (\(EventFormatting.describe(error)))" }
            // What the job was, so the failure can be found and fixed at its source.
            if let source = event.source { text += "; source \(EventFormatting.sanitized(source))" }
            if let chain = event.chain { text += ", chain \(EventFormatting.sanitized(chain))" }
            throw failure(text)
        case .running(let event):
            throw failure(
                "\(name) is not finished: \(event.worker.map { "worker \(EventFormatting.sanitized($0))" } ?? "a worker") started attempt \(event.attempt ?? 1) at \(event.at.iso8601); try again later, or `darkroom wait` its batch"
            )
        case .retrying(let event):
            throw failure(
                "\(name) is not finished: attempt \(event.attempt ?? 1) failed (\(event.error.map(EventFormatting.describe) ?? "?")) and it will be retried")
        case .notFound:
            throw failure("\(name) has no events: " + searched.notFoundReasons)
        }
    }

    /// The result to copy for rendition `name` of a succeeded job's `result`: that rendition's
    /// output, described as a result of its own; `result` itself for no name.
    static func rendition(_ name: String?, of result: JobResult, job: JobID) throws(Failure) -> JobResult {
        guard let name else { return result }
        let job = "job \(EventFormatting.sanitized(job.rawValue))"
        guard let renditions = result.renditions else { throw failure("\(job) has no renditions; leave out the rendition name") }
        guard let found = renditions.first(where: { $0.name == name }) else {
            throw failure(
                "\(job) has no rendition '\(EventFormatting.sanitized(String(name.prefix(64))))'; its renditions are \(renditions.map(\.name).joined(separator: ", "))"
            )
        }
        guard let output = found.output, !output.isEmpty else {
            throw failure("\(job)'s rendition \(name) was kept only in the worker's memory; run it again with --out DIR")
        }
        try refuseObjectStorage(output, etag: found.etag, name: "\(job)'s rendition \(name)")
        return JobResult(
            output: output, format: found.format, width: found.width, height: found.height, bytes: found.bytes, cache: found.cache,
            sha256: found.sha256)
    }

    /// `get` copies files from the shared volume; an output in object storage is read from its
    /// bucket, so it fails naming the object's URL and ETag (what the event carries).
    private static func refuseObjectStorage(_ output: String, etag: String?, name: String) throws(Failure) {
        guard Capabilities.isObjectStorageDestination(output) else { return }
        throw failure(
            "\(name)'s output is in object storage: \(EventFormatting.sanitized(output))\(etag.map { " (ETag \(EventFormatting.sanitized($0)))" } ?? ""); read it from the bucket with an S3 client"
        )
    }

    private static func failure(_ message: String) -> Failure { Failure(message: message) }
}
