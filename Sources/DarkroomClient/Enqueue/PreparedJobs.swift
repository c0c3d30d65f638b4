import DarkroomQueue

/// Jobs checked and canonicalised by `FleetClient.prepare`, ready to send.
public struct PreparedJobs: Sendable {
    /// The job records, in request order.
    public var jobs: [Job]
    /// One line per processor accepted only because live workers offer it (this client lacks it,
    /// so the worker checks its arguments).
    public var notes: [String]

    /// Jobs ready to send, with the notes made while checking them.
    public init(jobs: [Job], notes: [String] = []) {
        self.jobs = jobs
        self.notes = notes
    }
}

/// What `FleetClient.enqueue` sent.
public struct EnqueueReceipt: Sendable {
    /// Every job of the request, as sent.
    public var jobs: [Job]
    /// New jobs the queue accepted.
    public var added: Int
    /// As in `PreparedJobs.notes`.
    public var notes: [String]
    /// Skipped jobs the queue knows in another batch than theirs, by that batch (they are counted
    /// there, not in this request's batch).
    public var knownElsewhere: [EnqueueReport.Elsewhere] = []

    /// A record that `added` of `jobs` were new to the queue.
    public init(jobs: [Job], added: Int, notes: [String] = []) {
        self.jobs = jobs
        self.added = added
        self.notes = notes
    }

    /// Jobs whose id the queue already knew (or that repeated an id within the request).
    public var skipped: Int { jobs.count - added }
}
