import DarkroomFleetStatus
import DarkroomQueue

extension FleetClient {
    /// One page of `batch`'s jobs, in the order they entered it, only those in `state` when given:
    /// the first page without `cursor`, then each next one with the previous page's `nextCursor`
    /// (nil on the last page). At most `limit` jobs; O(`limit`) work in the queue whatever the
    /// batch's size. Nil when the batch is unknown (never enqueued into, or its record expired).
    ///
    /// The states are the coordinator's: each job is listed in the state its latest folded event
    /// gave it (`queued` before any), as of `asOf`. With no coordinator running the states stop
    /// moving, and with none registered (`asOf` nil) every job enqueued since lists as `queued`.
    /// A job that changes state between two pages may be listed on both or on neither.
    ///
    /// Throws `JobQueueError.invalidCursor` for a cursor no page gave, and
    /// `JobQueueError.invalidArgument` when the queue keeps no coordinator projections (only a
    /// queue that is `CoordinatorStoreProviding`, e.g. `RedisStreamsQueue`, lists a batch's jobs).
    public func jobs(inBatch batch: String, state: BatchJobState? = nil, cursor: String? = nil, limit: Int = 100) async throws
        -> BatchJobPage?
    {
        guard let store = (queue as? any CoordinatorStoreProviding)?.coordinatorStore else {
            throw JobQueueError(.invalidArgument, "this queue keeps no coordinator projections, so no batch's job list")
        }
        if let cursor, BatchJobPage.position(ofCursor: cursor) == nil {
            throw JobQueueError(.invalidCursor, "'\(cursor.prefix(40))' is not a cursor of a batch's job list")
        }
        guard try await queue.batchProgress(batch) != nil else { return nil }
        let registration = try await store.coordinatorRegistration()
        var page = try await store.batchJobs(batch, state: state, after: cursor, limit: limit)
        page.asOf = registration?.updatedAt
        return page
    }
}
