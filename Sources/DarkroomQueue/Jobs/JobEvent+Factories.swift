/// Constructors for each event type. `id` defaults to a fresh UUIDv7 and `at` to now.
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
        job: JobID, batch: String, worker: String, attempt: Int, result: JobResult,
        at: Timestamp = .now(), id: String = SortableIDGenerator.shared.make()
    ) -> JobEvent {
        JobEvent(id: id, type: .succeeded, at: at, batch: batch, job: job, worker: worker, attempt: attempt, result: result)
    }

    public static func failed(
        job: JobID, batch: String, worker: String, attempt: Int, error: JobError, willRetry: Bool,
        at: Timestamp = .now(), id: String = SortableIDGenerator.shared.make()
    ) -> JobEvent {
        JobEvent(
            id: id, type: .failed, at: at, batch: batch, job: job, worker: worker, attempt: attempt,
            error: error, willRetry: willRetry)
    }

    /// `worker` is the consumer that gave up on the job, or nil when nobody was delivering it.
    public static func dead(
        job: JobID, batch: String, worker: String?, attempt: Int, error: JobError,
        at: Timestamp = .now(), id: String = SortableIDGenerator.shared.make()
    ) -> JobEvent {
        JobEvent(id: id, type: .dead, at: at, batch: batch, job: job, worker: worker, attempt: attempt, error: error)
    }

    public static func cancelled(
        job: JobID, batch: String, attempt: Int, at: Timestamp = .now(),
        id: String = SortableIDGenerator.shared.make()
    ) -> JobEvent {
        JobEvent(id: id, type: .cancelled, at: at, batch: batch, job: job, attempt: attempt)
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
