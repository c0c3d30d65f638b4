import DarkroomQueue

extension FleetClient {
    /// Waits until every job of `batch` has its terminal event, or `timeout` passes; nil when the
    /// batch is unknown (never enqueued into, or its record expired). Jobs enqueued into the batch
    /// meanwhile are waited for too. An unreachable queue is ridden out for a minute.
    ///
    /// `onProgress` sees every new count (the first at once); `onFailure` each failure that
    /// happens while waiting; `onNote` that the queue was lost, or is back.
    public func wait(
        for batch: String, timeout: Duration? = nil,
        onProgress: (BatchProgress) -> Void = { _ in },
        onFailure: (BatchFailure) -> Void = { _ in },
        onNote: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> BatchWaitResult? {
        try await BatchWaiter(batch: batch, timeout: timeout, isOutage: isOutage)
            .wait(on: queue, onProgress: onProgress, onFailure: onFailure, onNote: onNote)
    }

    /// The latest state of `job`, from the events the stream still holds. When no job has that id
    /// and it is a source (an absolute path or a URL), the latest state of that source's
    /// `--id-from-source` jobs (`DerivedIDs.jobID`: `SOURCE#DIGEST`), the newest event first.
    public func lookup(_ job: JobID) async throws -> JobStatus {
        try await detail(job).status
    }

    /// What `lookup` finds, with every attempt's error of the job (of the job whose event gave the
    /// state, for a source): the coordinator's projection keeps them, a scan gathers them from the
    /// events it reads; either way the newest `JobErrorHistory.capacity`, oldest first.
    public func detail(_ job: JobID) async throws -> JobDetail {
        let lookup = JobLookup(job: job)
        let detail = try await lookup.detail(on: queue)
        let text = job.rawValue
        guard detail.status == .notFound, text.hasPrefix("/") || text.contains("://") || text.hasPrefix("data:") else { return detail }
        return try await lookup.latestDetail(ofIDsWithPrefix: DerivedIDs.sourceKey(text) + "#", on: queue)
    }

    /// Drops the batch's queued and delayed jobs (each gets a `cancelled` event); running jobs
    /// finish normally. Nil, dropping nothing, when the batch is unknown.
    public func cancel(batch: String) async throws -> BatchCancellation? {
        guard let progress = try await queue.batchProgress(batch) else { return nil }
        let dropped = try await queue.cancel(batch: batch)
        return BatchCancellation(batch: batch, cancelled: dropped, running: max(progress.remaining - dropped, 0))
    }

    /// Drops these queued or delayed jobs; returns how many were dropped (running, finished and
    /// unknown ids are left alone).
    public func cancel(jobs: [JobID]) async throws -> Int {
        try await queue.cancel(jobs: jobs)
    }
}
