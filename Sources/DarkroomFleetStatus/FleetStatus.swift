import DarkroomQueue

/// The fleet at a glance: what `darkroom status --json` prints and the coordinator's `/status`
/// serves (`FleetStatusReader` builds it). Fields that only a coordinator's projections can fill
/// are nil without one, and `needsCoordinator` names them.
public struct FleetStatus: Sendable, Hashable, Codable {
    /// One priority's queue.
    public struct PriorityQueue: Sendable, Hashable, Codable {
        /// Jobs waiting to be handed out.
        public var ready: Int
        /// How long the oldest of them has waited, in seconds; nil when none waits (or the driver
        /// keeps no such time).
        public var lagSeconds: Double?
    }

    /// A live worker: its heartbeat, and what the coordinator folded about it.
    public struct Worker: Sendable, Hashable, Codable {
        public var name: String
        public var host: String
        public var pid: Int32
        public var concurrency: Int
        /// Jobs finished since it started, from its own heartbeat.
        public var jobsDone: Int
        /// Plugin module → version.
        public var modules: [String: String]
        public var version: String
        public var startedAt: Timestamp
        /// Its latest heartbeat.
        public var seenAt: Timestamp
        /// Its `failed` and `dead` events (coordinator).
        public var errors: Int?
        /// Jobs it has started and not ended (coordinator).
        public var currentJobs: Int?
    }

    /// A worker with no live heartbeat that still holds jobs it started and never ended
    /// (coordinator): they stay abandoned until a worker reclaims them (restarts them, or
    /// dead-letters them), and the worker is listed until then.
    public struct DeadWorker: Sendable, Hashable, Codable {
        public var name: String
        /// Its latest event, when the coordinator folded one.
        public var lastEventAt: Timestamp?
        /// Jobs it started that have not ended or been started again elsewhere.
        public var abandonedJobs: Int
    }

    /// A batch's counters: the terminal ones counted by the queue, the rest by the coordinator.
    public struct Batch: Sendable, Hashable, Codable {
        public var name: String
        public var total: Int
        public var succeeded: Int
        public var failed: Int
        public var dead: Int
        public var cancelled: Int
        public var running: Int?
        public var queued: Int?
        public var p50Ms: Double?
        public var p95Ms: Double?
    }

    /// A failed attempt or a dead job.
    public struct Failure: Sendable, Hashable, Codable {
        public var at: Timestamp
        public var batch: String?
        public var job: String?
        public var worker: String?
        /// `failed` or `dead`.
        public var type: String
        public var code: String
        public var message: String
        /// Whether the job will be tried again.
        public var willRetry: Bool
    }

    /// The registered coordinator.
    public struct CoordinatorState: Sendable, Hashable, Codable {
        /// Who holds the lease now; nil when none runs (the registration outlives it).
        public var leaseHolder: String?
        /// The last event folded into the projections.
        public var checkpoint: String?
        /// When the checkpoint last moved.
        public var updatedAt: Timestamp?
        /// How far the projections are behind the newest event, in seconds (stream time).
        public var lagSeconds: Double?
    }

    /// When this was read.
    public var at: Timestamp
    /// `high`, `normal`, `low`.
    public var queues: [String: PriorityQueue]
    /// Jobs delivered to a worker and not finished.
    public var inFlight: Int
    /// Jobs waiting for their time (delays, retry backoff).
    public var delayed: Int
    public var deadLetters: Int
    /// Live workers, by name.
    public var workers: [Worker]
    /// Workers gone (no live heartbeat) with abandoned jobs, by name (coordinator).
    public var deadWorkers: [DeadWorker]?
    /// The batches asked for, or the most recently active ones (coordinator).
    public var batches: [Batch]
    /// Jobs that ended in the last 60 whole seconds (coordinator).
    public var jobsEndedLastMinute: Int?
    /// The newest failures, newest first (coordinator).
    public var failures: [Failure]?
    public var coordinator: CoordinatorState?
    /// The fields left out for want of a coordinator (empty when one is registered).
    public var needsCoordinator: [String]
}
