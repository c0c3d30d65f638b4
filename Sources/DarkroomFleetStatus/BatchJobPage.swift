import DarkroomQueue

/// A job's state as a batch's job index lists it: the state `GET /v1/jobs/{id}` reports for the
/// job (`running`, `retrying`, or its terminal event's type), or `queued` for a job no event of
/// which the coordinator has folded yet (queued, delayed, or not yet started by any worker).
public enum BatchJobState: String, Sendable, Hashable, Codable, CaseIterable {
    case queued, running, retrying, succeeded, failed, dead, cancelled
}

/// One job of a batch's job index.
public struct BatchJobEntry: Sendable, Hashable {
    public var id: JobID
    public var state: BatchJobState
    /// The attempt the job's latest folded event is about; 0 for a `queued` job no worker started.
    public var attempts: Int
    /// When the job's latest folded event happened; nil for a `queued` job (no event yet).
    public var updatedAt: Timestamp?

    public init(id: JobID, state: BatchJobState, attempts: Int, updatedAt: Timestamp?) {
        self.id = id
        self.state = state
        self.attempts = attempts
        self.updatedAt = updatedAt
    }
}

/// One page of a batch's jobs, in the order they entered the batch (`CoordinatorStore.batchJobs`,
/// `FleetClient.jobs(inBatch:state:cursor:limit:)`).
public struct BatchJobPage: Sendable, Hashable {
    public var batch: String
    /// The state the page is filtered by; nil for every state.
    public var state: BatchJobState?
    public var jobs: [BatchJobEntry]
    /// The cursor of the next page; nil on the last page.
    public var nextCursor: String?
    /// When the coordinator last folded events: the states are as of then. Nil when no
    /// coordinator is registered, so no state moves (every job enqueued since lists as `queued`).
    public var asOf: Timestamp?

    public init(batch: String, state: BatchJobState?, jobs: [BatchJobEntry], nextCursor: String?, asOf: Timestamp? = nil) {
        self.batch = batch
        self.state = state
        self.jobs = jobs
        self.nextCursor = nextCursor
        self.asOf = asOf
    }

    /// The place in the batch a cursor stands for (the last listed job's: the next page starts
    /// after it), or nil when `text` is no cursor of a batch job page. Cursors are opaque to
    /// callers; they are the job's place in its batch, 1 for its first job, in decimal.
    public static func position(ofCursor text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 15, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int64(text)
    }

    /// The cursor of a place in the batch.
    public static func cursor(atPosition position: Int64) -> String { String(position) }
}
