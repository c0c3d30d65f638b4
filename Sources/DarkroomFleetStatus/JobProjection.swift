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

    public init(
        latest: JobEvent, cursor: EventCursor, starts: Int, startedAt: Timestamp?, durationMilliseconds: Int64?,
        errors: JobErrorHistory = JobErrorHistory()
    ) {
        self.latest = latest
        self.cursor = cursor
        self.starts = starts
        self.startedAt = startedAt
        self.durationMilliseconds = durationMilliseconds
        self.errors = errors
    }
}
