import DarkroomQueue

/// What a coordinator's readers have done since it started: for `/status`, metrics and tests.
public struct CoordinatorProgress: Sendable, Hashable {
    /// Whether this coordinator holds the lease.
    public var isLeader = false
    /// The coordinator that held the lease when this one last found it taken.
    public var waitingFor: String?
    /// The projections' checkpoint, as last applied.
    public var projectionCheckpoint: EventCursor?
    /// The event log's checkpoint.
    public var logCheckpoint: EventCursor?
    /// Events folded into the projections.
    public var eventsProjected = 0
    /// Events written to the log.
    public var eventsLogged = 0
    /// Gaps found (the stream had dropped events not yet read), and the events they lost where known.
    public var gaps = 0
    public var eventsLost = 0
    /// `workerOffline` events published for lapsed heartbeats.
    public var workersMarkedOffline = 0
    /// Delayed jobs moved into their streams by housekeeping.
    public var delayedJobsPromoted = 0

    /// Where each reader allows the stream to be trimmed.
    var projectionTrimPoint = TrimPoint(retention: 100_000)
    var logTrimPoint = TrimPoint(retention: 100_000)

    public init() {}

    init(retention: Int) {
        projectionTrimPoint = TrimPoint(retention: retention)
        logTrimPoint = TrimPoint(retention: retention)
    }
}
