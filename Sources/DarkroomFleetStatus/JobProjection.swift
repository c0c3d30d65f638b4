import DarkroomQueue

/// What the coordinator knows of one job: its latest event and what it folded around it.
public struct JobProjection: Sendable, Hashable {
    /// The job's latest event (`started`, a `failed` that will be retried, or its terminal event):
    /// the same record `darkroom get` shows from a scan of the stream.
    public var latest: JobEvent
    /// The stream position of `latest`.
    public var cursor: EventCursor
    /// How many times a worker started it.
    public var starts: Int
    /// When the latest attempt started, if the coordinator saw it start.
    public var startedAt: Timestamp?
    /// From the latest start to the terminal event, when both were seen.
    public var durationMilliseconds: Int64?
    /// Every attempt's error, oldest first (the newest `JobErrorHistory.capacity`; empty for a job
    /// that never failed).
    public var errors: JobErrorHistory
    /// Set when the job has ended and its terminal event is no longer in the event stream (the
    /// stream keeps the last ~100,000 events): `latest` then holds only what the job's finished
    /// record keeps (type, batch, attempt, the time the event was appended, a failure's error
    /// code with an empty message; no worker, result, source or chain). The event log on the
    /// volume has the whole event.
    public var trimmed: Trimmed?

    /// What a finished job's record adds to a trimmed `latest`.
    public struct Trimmed: Sendable, Hashable {
        /// A succeeded job's number of outputs (one per rendition); nil for other jobs.
        public var outputs: Int?

        public init(outputs: Int?) { self.outputs = outputs }
    }

    public init(
        latest: JobEvent, cursor: EventCursor, starts: Int, startedAt: Timestamp?, durationMilliseconds: Int64?,
        errors: JobErrorHistory = JobErrorHistory(), trimmed: Trimmed? = nil
    ) {
        self.trimmed = trimmed
        self.latest = latest
        self.cursor = cursor
        self.starts = starts
        self.startedAt = startedAt
        self.durationMilliseconds = durationMilliseconds
        self.errors = errors
    }
}
