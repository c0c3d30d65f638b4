/// Constructors for each event type. `id` defaults to a fresh UUIDv7 and `at` to now.
///
/// Terminal events take the job's `source` as typed and its `chain`: the factory stores the source
/// redacted (`SourceRedaction.redact`), so no caller can forget to. A retrying `failed` carries
/// neither (`failed` drops them when `willRetry`): the job's terminal event will, so each job pays
/// for them once in the stream.
extension JobEvent {
    public static func batchEnqueued(
        batch: String, count: Int, at: Timestamp = .now(),
        id: String = SortableIDGenerator.shared.make()
    ) -> JobEvent {
        JobEvent(id: id, type: .batchEnqueued, at: at, batch: batch, count: count)
    }

    public static func started(
        job: JobID, batch: String, worker: String, attempt: Int, at: Timestamp = .now(),
        id: String = SortableIDGenerator.shared.make()
    ) -> JobEvent {
        JobEvent(id: id, type: .started, at: at, batch: batch, job: job, worker: worker, attempt: attempt)
    }

    public static func succeeded(
        job: JobID, batch: String, worker: String, attempt: Int, result: JobResult, source: String? = nil,
        chain: String? = nil, metadata: String? = nil, at: Timestamp = .now(), id: String = SortableIDGenerator.shared.make()
    ) -> JobEvent {
        JobEvent(
            id: id, type: .succeeded, at: at, batch: batch, job: job, worker: worker, attempt: attempt, result: result,
            source: source.map(SourceRedaction.redact), chain: chain, metadata: metadata)
    }

    /// `source`, `chain` and `metadata` are kept only when `willRetry` is false (the terminal `failed`).
    public static func failed(
        job: JobID, batch: String, worker: String, attempt: Int, error: JobError, willRetry: Bool,
        source: String? = nil, chain: String? = nil, metadata: String? = nil, at: Timestamp = .now(),
        id: String = SortableIDGenerator.shared.make()
    ) -> JobEvent {
        JobEvent(
            id: id, type: .failed, at: at, batch: batch, job: job, worker: worker, attempt: attempt,
            error: error, willRetry: willRetry, source: willRetry ? nil : source.map(SourceRedaction.redact),
            chain: willRetry ? nil : chain, metadata: willRetry ? nil : metadata)
    }

    /// `worker` is the consumer that gave up on the job, or nil when nobody was delivering it.
    public static func dead(
        job: JobID, batch: String, worker: String?, attempt: Int, error: JobError, source: String? = nil,
        chain: String? = nil, metadata: String? = nil, at: Timestamp = .now(), id: String = SortableIDGenerator.shared.make()
    ) -> JobEvent {
        JobEvent(
            id: id, type: .dead, at: at, batch: batch, job: job, worker: worker, attempt: attempt, error: error,
            source: source.map(SourceRedaction.redact), chain: chain, metadata: metadata)
    }

    public static func cancelled(
        job: JobID, batch: String, attempt: Int, source: String? = nil, chain: String? = nil, metadata: String? = nil,
        at: Timestamp = .now(), id: String = SortableIDGenerator.shared.make()
    ) -> JobEvent {
        JobEvent(
            id: id, type: .cancelled, at: at, batch: batch, job: job, attempt: attempt,
            source: source.map(SourceRedaction.redact), chain: chain, metadata: metadata)
    }

    public static func workerOnline(
        worker: String, at: Timestamp = .now(),
        id: String = SortableIDGenerator.shared.make()
    ) -> JobEvent {
        JobEvent(id: id, type: .workerOnline, at: at, worker: worker)
    }

    public static func workerOffline(
        worker: String, at: Timestamp = .now(),
        id: String = SortableIDGenerator.shared.make()
    ) -> JobEvent {
        JobEvent(id: id, type: .workerOffline, at: at, worker: worker)
    }
}
