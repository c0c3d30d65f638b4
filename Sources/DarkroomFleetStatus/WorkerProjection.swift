import DarkroomQueue

/// What the coordinator folded out of the events naming one worker.
public struct WorkerProjection: Sendable, Hashable, Codable {
    public enum State: String, Sendable, Hashable, Codable {
        /// Announced itself (`workerOnline`) or was seen working since.
        case online
        /// Said goodbye, or its heartbeat lapsed (the coordinator then published `workerOffline`).
        case offline
    }

    public var name: String
    public var state: State
    /// Jobs it ended (any terminal outcome).
    public var jobsDone: Int
    /// Its `failed` and `dead` events, retried or not.
    public var errors: Int
    /// Jobs it has started and not ended.
    public var currentJobs: Int
    /// Its latest event.
    public var lastEventAt: Timestamp?

    public init(name: String, state: State, jobsDone: Int, errors: Int, currentJobs: Int, lastEventAt: Timestamp?) {
        self.name = name
        self.state = state
        self.jobsDone = jobsDone
        self.errors = errors
        self.currentJobs = currentJobs
        self.lastEventAt = lastEventAt
    }
}
