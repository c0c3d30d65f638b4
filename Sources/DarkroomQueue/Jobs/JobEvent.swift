/// Something that happened to a batch, a job or a worker, as published to the event stream.
///
/// Every job ends with exactly one *terminal* event (`isTerminal`): `succeeded`, `failed` with
/// `willRetry == false`, `dead` or `cancelled`. The queue driver publishes terminal events itself,
/// atomically with the acknowledgement, so a job delivered twice still ends once. The JSON is
/// documented in `JobEvent+Codable.swift`.
///
/// Build events with the static factories: they fill in exactly the fields each type needs.
public struct JobEvent: Sendable, Hashable {
    /// The record version this build writes and reads.
    public static let currentVersion = 1

    /// Unique event id (UUIDv7, so ids sort by time).
    public var id: String
    public var type: JobEventType
    /// When it happened.
    public var at: Timestamp
    /// The batch; nil only for worker events.
    public var batch: String?
    /// The job, for job events (`started` … `cancelled`).
    public var job: JobID?
    /// The worker (queue consumer name) involved; nil for `batchEnqueued` and `cancelled`.
    public var worker: String?
    /// The attempt number, for job events: the job's `attempt` plus redeliveries of that attempt.
    public var attempt: Int?
    /// How many new jobs a `batchEnqueued` added.
    public var count: Int?
    /// A `succeeded` job's result.
    public var result: JobResult?
    /// A `failed` or `dead` job's error.
    public var error: JobError?
    /// For `failed`: whether the job will be tried again (then the event is not terminal).
    public var willRetry: Bool?
    /// On terminal events: the job's source, redacted (`SourceRedaction`), so an output named by
    /// its job id can be traced back to what it was made from. Nil on other events and on events
    /// of older writers.
    public var source: String?
    /// On terminal events: the job's chain in canonical text, as its record holds it.
    public var chain: String?
    /// On terminal events: the job's metadata (`Job.metadata`), byte for byte.
    public var metadata: String?

    /// Whether this event ends its job: `succeeded`, `failed` without retry, `dead`, `cancelled`.
    public var isTerminal: Bool {
        switch type {
        case .succeeded, .dead, .cancelled: true
        case .failed: willRetry != true
        case .batchEnqueued, .started, .workerOnline, .workerOffline: false
        }
    }

    init(
        id: String, type: JobEventType, at: Timestamp, batch: String? = nil, job: JobID? = nil,
        worker: String? = nil, attempt: Int? = nil, count: Int? = nil, result: JobResult? = nil,
        error: JobError? = nil, willRetry: Bool? = nil, source: String? = nil, chain: String? = nil, metadata: String? = nil
    ) {
        self.id = id
        self.type = type
        self.at = at
        self.batch = batch
        self.job = job
        self.worker = worker
        self.attempt = attempt
        self.count = count
        self.result = result
        self.error = error
        self.willRetry = willRetry
        self.source = source
        self.chain = chain
        self.metadata = metadata
    }
}

/// The kinds of event.
public enum JobEventType: String, Sendable, Hashable, Codable, CaseIterable {
    /// One per batch per enqueue call, with the number of new jobs.
    case batchEnqueued
    /// A worker began a job.
    case started
    /// Terminal: the result is stored.
    case succeeded
    /// A failure; terminal when `willRetry` is false.
    case failed
    /// Terminal: retries or deliveries exhausted, the job is in the dead-letter queue.
    case dead
    /// Terminal: the job was dropped from the queue before any worker took it.
    case cancelled
    /// A worker started.
    case workerOnline
    /// A worker stopped.
    case workerOffline

    /// Whether the event concerns one job (and so carries `job` and `attempt`).
    public var isJobEvent: Bool {
        switch self {
        case .started, .succeeded, .failed, .dead, .cancelled: true
        case .batchEnqueued, .workerOnline, .workerOffline: false
        }
    }
}
