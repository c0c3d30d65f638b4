import DarkroomQueue

/// Where a coordinator keeps what it folds out of the event stream: its lease, its checkpoint and
/// the projections (per job, per batch, per worker) that `darkroom get` and `darkroom status`
/// answer from in O(1). `RedisCoordinatorStore` (DarkroomRedis) implements it in Redis, beside the
/// stream it folds; a queue that has one says so with `CoordinatorStoreProviding`.
///
/// ## Exactly once
/// `applyProjections` folds a page of events *and* moves the checkpoint in one atomic step, and
/// only when the checkpoint is still the one the page was read after and the caller still holds
/// the lease. A coordinator killed at any point therefore resumes from a checkpoint that matches
/// its projections: no event is missed and none is counted twice.
///
/// ## The lease
/// One coordinator at a time folds the stream: the holder renews a lease with a time to live; a
/// second coordinator waits until the lease lapses. Every write names its owner, so a holder that
/// stalled past its lease cannot write over its successor's work.
public protocol CoordinatorStore: Sendable {
    /// Takes the lease for `owner`, or renews it when `owner` holds it, for `ttl` from now.
    /// Returns the holder after the call: `owner` on success, another coordinator's name when it
    /// holds the lease.
    func acquireCoordinatorLease(owner: String, ttl: Duration) async throws -> String

    /// Gives the lease up at once when `owner` holds it (graceful shutdown).
    func releaseCoordinatorLease(owner: String) async throws

    /// The registered coordinator: its checkpoint, its event-stream cap, and whether it is
    /// registered at all (nil when no coordinator has run, or it has been gone longer than its
    /// registration lasts).
    func coordinatorRegistration() async throws -> CoordinatorRegistration?

    /// Registers a coordinator (or refreshes its registration): while registered, publishers trim
    /// the event stream to `streamCap` entries instead of the usual retention, and the coordinator
    /// trims behind its checkpoint itself.
    func registerCoordinator(owner: String, streamCap: Int) async throws

    /// Folds `events` (read right after `checkpoint`, in stream order) into the projections and
    /// moves the checkpoint to the last event's cursor, atomically. Nothing changes, and the
    /// answer says why, when `owner` no longer holds the lease or the stored checkpoint is not
    /// `checkpoint` (another coordinator moved it).
    func applyProjections(_ events: [EventEnvelope], after checkpoint: EventCursor?, owner: String) async throws
        -> ProjectionUpdate

    /// Drops events older than `cursor` from the stream (Redis `XTRIM MINID ~`): a coordinator
    /// calls it only with a cursor every reader it serves has passed.
    func trimEvents(before cursor: EventCursor) async throws

    /// Workers the projections list as online whose heartbeat has lapsed and whose latest event is
    /// older than `grace` (a worker announces itself just before its first heartbeat lands): each
    /// is marked offline and gets a `workerOffline` event, atomically, so a crashed worker shows in
    /// the log once. Returns their names. Only the lease holder calls it.
    func markLapsedWorkersOffline(owner: String, grace: Duration) async throws -> [String]

    /// Moves delayed jobs that are due into their streams (as a worker's reserve does), so they
    /// count as ready even when no worker is reserving. Returns how many moved.
    func promoteDueDelayedJobs(limit: Int) async throws -> Int

    /// The projection of one job, or nil when the coordinator has not seen the job (or its
    /// projection expired).
    func jobProjection(_ id: JobID) async throws -> JobProjection?

    /// The coordinator's fields of a batch (running, queued, duration percentiles), or nil.
    func batchProjection(_ batch: String) async throws -> BatchProjection?

    /// One page of `batch`'s jobs in the order they entered it (its job index, which the enqueue
    /// script starts and `applyProjections` moves), only those in `state` when given, after the
    /// job `cursor` names (a `BatchJobPage.nextCursor`; nil for the first page), at most `limit`.
    /// O(`limit`) work whatever the batch's size. Throws `JobQueueError.invalidCursor` for a
    /// cursor that is not one. An unknown batch gives an empty page.
    func batchJobs(_ batch: String, state: BatchJobState?, after cursor: String?, limit: Int) async throws -> BatchJobPage

    /// The projections of the workers seen lately, by name.
    func workerProjections() async throws -> [WorkerProjection]

    /// The batches the coordinator folded events of most recently, newest first, at most `limit`.
    func recentBatches(limit: Int) async throws -> [String]

    /// The newest `failed` and `dead` events the coordinator folded, newest first, at most `limit`
    /// (it keeps 50).
    func recentFailures(limit: Int) async throws -> [JobEvent]

    /// How many jobs ended (terminal events) in the `seconds` whole seconds before `now`.
    func jobsEnded(inLast seconds: Int, before now: Timestamp) async throws -> Int

    /// The per-minute series of the last `count` minutes up to and including `now`'s (partial)
    /// minute, oldest first, a minute with no ended job included as zero. The coordinator keeps
    /// the last two hours.
    func minuteSeries(count: Int, endingAt now: Timestamp) async throws -> [FleetMinute]
}

/// The answer of `CoordinatorStore.applyProjections`.
public enum ProjectionUpdate: Sendable, Equatable {
    /// The events were folded and the checkpoint moved to the last of them.
    case applied
    /// Another coordinator holds the lease now; nothing was written.
    case leaseLost
    /// The stored checkpoint is not the one the events were read after; nothing was written.
    case checkpointMoved(EventCursor?)
}

/// A coordinator's registration as publishers and readers see it.
public struct CoordinatorRegistration: Sendable, Hashable {
    /// The last event folded into the projections; nil before the first.
    public var checkpoint: EventCursor?
    /// The event stream's length cap while this coordinator is registered.
    public var streamCap: Int
    /// The lease holder now, if any.
    public var leaseHolder: String?
    /// When the checkpoint last moved.
    public var updatedAt: Timestamp?

    public init(checkpoint: EventCursor?, streamCap: Int, leaseHolder: String?, updatedAt: Timestamp?) {
        self.checkpoint = checkpoint
        self.streamCap = streamCap
        self.leaseHolder = leaseHolder
        self.updatedAt = updatedAt
    }
}
