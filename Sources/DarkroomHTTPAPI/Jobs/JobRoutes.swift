import DarkroomAPIKeys
import DarkroomClient
import DarkroomFleetStatus
import DarkroomQueue
import DarkroomS3
import Foundation
import Hummingbird
import Logging

/// The job endpoints over a `FleetClient`: submit, read and cancel jobs and batches, each for the
/// request's API key (its scopes, its grants, and the work it owns). Every answer is JSON; every
/// failure an error body (`APIResponse.failure`).
struct JobRoutes: Sendable {
    let client: FleetClient
    let configuration: APIConfiguration
    let access: APIAccess
    let logger: Logger

    /// Which submit endpoint a body came to.
    enum SubmitKind: String, Sendable {
        case job = "POST /v1/jobs"
        case batch = "POST /v1/batches"
    }

    /// Checks the body's jobs as `darkroom enqueue` does, and against `key`'s grants, and enqueues
    /// them all, or none: 201 with the ids when any job was new, 200 when the queue knew every one
    /// (an idempotent repeat). The key is recorded as the owner of the jobs and their batches.
    /// A batch with `s3://` prefixes or globs among its sources is listed and enqueued page by
    /// page instead (`submitListed`); `clientConnected` stops that listing once the client left.
    func submit(
        _ body: [UInt8], kind: SubmitKind, key: APIKey, clientConnected: @Sendable () async -> Bool = { true }
    ) async throws -> (HTTPResponse.Status, [UInt8]) {
        try key.permits(scope: .submit)
        let submission =
            switch kind {
            case .job: try JobSubmission.single(body, workingDirectory: configuration.workingDirectory)
            case .batch: try JobSubmission.batch(body, workingDirectory: configuration.workingDirectory)
            }
        if submission.requests.contains(where: { S3KeyPattern.isPattern($0.source) }) {
            guard kind == .batch else {
                throw EnqueueRefusal(problems: [
                    JobSubmission.problem("'source' is an s3:// prefix or glob, which names many objects: send it in POST /v1/batches", location: nil)
                ])
            }
            return try await submitListed(submission, key: key, clientConnected: clientConnected)
        }
        let prepared = try await client.prepare(submission.requests, defaults: submission.defaults, listName: "jobs")
        var jobs = prepared.jobs
        if !submission.batchGiven, submission.defaults.idFromSource || submission.requests.allSatisfy({ $0.id != nil }) {
            // As `darkroom enqueue`: a request that names every id names its batch too, so a
            // repeat lands in the same batch and waiting for it reports the jobs.
            let batch = DerivedIDs.batch(for: jobs.map(\.id))
            for index in jobs.indices { jobs[index].batch = batch }
        }
        let report = try await enqueue(
            PreparedJobs(jobs: jobs, notes: prepared.notes), key: key, locate: kind == .batch && jobs.count == submission.requests.count)
        let answer = SubmitAnswer(jobs: jobs, report: report, notes: prepared.notes)
        return (report.added > 0 ? .created : .ok, Array(try RecordJSON.encoder().encode(answer)))
    }

    /// Enqueues `prepared` for `key` once every job passes its grants: the key recorded as the
    /// owner first, the webhooks the jobs name subscribed, then the jobs sent.
    func enqueue(_ prepared: PreparedJobs, key: APIKey, locate: Bool) async throws -> EnqueueReport {
        let jobs = prepared.jobs
        try permit(jobs, key: key, locate: locate)
        try await recordOwner(key, of: jobs)
        if jobs.contains(where: { $0.webhook != nil }) {
            guard let subscribe = access.subscribeWebhooks else {
                throw APIError(.invalidField, "this API process sends no webhooks: submit the job without 'webhook'")
            }
            try await subscribe(jobs)
        }
        return try await client.enqueueReport(prepared)
    }

    /// Every job must pass `key.permits(job:)` (source, output, priority), or nothing is enqueued;
    /// `locate` names the refused job's place in the request (`jobs:3`). The key's grants are
    /// parsed once for the whole request, not per job.
    private func permit(_ jobs: [Job], key: APIKey, locate: Bool) throws(KeyRefusal) {
        let check = key.jobGrantCheck()
        for (index, job) in jobs.enumerated() {
            do { try check.permits(job: job) } catch { throw KeyRefusal(error: error, location: locate ? "jobs:\(index + 1)" : nil) }
        }
    }

    /// Records `key` as the owner of `jobs` and their batches before they are enqueued, so a job
    /// is never in the queue unowned; a batch of another key's (or the CLI's) refuses the request.
    private func recordOwner(_ key: APIKey, of jobs: [Job]) async throws {
        let now = Timestamp.now()
        let delay = jobs.compactMap(\.notBefore).max().map { $0.duration(since: now) } ?? .zero
        var batches: [String] = []
        for job in jobs where !batches.contains(job.batch) { batches.append(job.batch) }
        let refused = try await access.owners.record(
            owner: key.id, isAdmin: key.has(scope: .admin), batches: batches, jobs: jobs.map(\.id.rawValue),
            lifetime: Ownership.lifetime + max(delay, .zero))
        if let refused {
            throw APIError(
                .batchNotOwned,
                "the batch '\(SafeText.sanitized(String(refused.prefix(200))))' holds work this API key did not submit; name another batch")
        }
    }

    /// `GET /v1/jobs/{id}`.
    func job(_ id: JobID, key: APIKey) async throws -> Response {
        try key.permits(scope: .read)
        try await access.requireAccess(key, job: id.rawValue, unknown: Self.unknownJob(id))
        guard let view = JobView(try await client.detail(id), id: id) else { throw Self.unknownJob(id) }
        return try APIResponse.json(.ok, view)
    }

    /// `DELETE /v1/jobs/{id}`: drops the job when it is still queued or delayed. A key cancels
    /// what it submitted (`submit`), or anything (`admin`).
    func cancel(_ id: JobID, key: APIKey) async throws -> Response {
        try Self.permitsCancel(key)
        try await access.requireAccess(key, job: id.rawValue, unknown: Self.unknownJob(id))
        struct Answer: Encodable {
            var id: String
            var cancelled: Bool
        }
        let dropped = try await client.cancel(jobs: [id])
        if dropped == 0, try await client.lookup(id) == .notFound { throw Self.unknownJob(id) }
        return try APIResponse.json(.ok, Answer(id: id.rawValue, cancelled: dropped > 0))
    }

    /// `GET /v1/batches/{batch}`.
    func batch(_ name: String, key: APIKey) async throws -> Response {
        try key.permits(scope: .read)
        try await access.requireAccess(key, batch: name, unknown: Self.unknownBatch(name))
        guard let progress = try await client.queue.batchProgress(name) else { throw Self.unknownBatch(name) }
        let times = try await client.queue.batchTimes(name)
        // The coordinator's fields, when one is registered (as `darkroom status --batch` reads them).
        var projection: BatchProjection?
        if let store = (client.queue as? any CoordinatorStoreProviding)?.coordinatorStore, try await store.coordinatorRegistration() != nil {
            projection = try await store.batchProjection(name)
        }
        return try APIResponse.json(.ok, BatchView(batch: name, progress: progress, times: times, projection: projection))
    }

    /// `DELETE /v1/batches/{batch}`: drops its queued and delayed jobs; running ones finish.
    func cancel(batch name: String, key: APIKey) async throws -> Response {
        try Self.permitsCancel(key)
        try await access.requireAccess(key, batch: name, unknown: Self.unknownBatch(name))
        struct Answer: Encodable {
            var batch: String
            var cancelled: Int
            var running: Int
        }
        guard let cancellation = try await client.cancel(batch: name) else { throw Self.unknownBatch(name) }
        return try APIResponse.json(.ok, Answer(batch: name, cancelled: cancellation.cancelled, running: cancellation.running))
    }

    /// Cancelling is undoing a submit: a key with `submit` cancels its own work, `admin` anyone's.
    static func permitsCancel(_ key: APIKey) throws(APIKeyError) {
        if key.has(scope: .admin) { return }
        try key.permits(scope: .submit)
    }

    static func unknownJob(_ id: JobID) -> APIError {
        APIError(
            .notFound,
            "no event names job '\(SafeText.sanitized(String(id.rawValue.prefix(200))))': it is unknown, still queued, or its events were trimmed")
    }

    static func unknownBatch(_ name: String) -> APIError {
        APIError(.notFound, "no batch '\(SafeText.sanitized(String(name.prefix(200))))': never enqueued into, or its record expired")
    }
}
