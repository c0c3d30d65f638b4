import DarkroomQueue

extension CoordinatorMetrics {
    /// The metrics' plain counters, for `/status` and the dashboard: what this coordinator has seen
    /// since it started (not Redis' projections, which outlive it).
    public struct Snapshot: Sendable, Hashable, Codable {
        public var version = 1
        /// The stream id of the last event folded.
        public var checkpoint: String?
        /// The stream time of that event.
        public var checkpointTime: Timestamp?
        public var eventsProcessed: Int
        /// Job outcomes by name: `succeeded`, `failed`, `retried`, `dead`, `cancelled`.
        public var jobs: [String: Int]
        public var liveWorkers: Int
        /// Workers by name, most recently seen first.
        public var workers: [WorkerStatus]
        /// Batches, most recently updated first.
        public var batches: [BatchStatus]
        /// The latest failures (`failed` and `dead`), newest first.
        public var failures: [Failure]
        /// The last queue poll, when there was one.
        public var queue: QueueGauges?
    }

    /// A worker as seen through its events.
    public struct WorkerStatus: Sendable, Hashable, Codable {
        public var name: String
        /// `idle`, `busy` (running jobs) or `offline`.
        public var state = "idle"
        /// Jobs started and not yet ended.
        public var running = 0
        public var jobsDone = 0
        public var errors = 0
        public var lastSeen = Timestamp.earliest
    }

    /// A batch as seen through its events.
    public struct BatchStatus: Sendable, Hashable, Codable {
        public var name: String
        /// Jobs enqueued (sum of `batchEnqueued` counts seen).
        public var total = 0
        /// `started` events (a retried job starts more than once).
        public var started = 0
        public var succeeded = 0
        public var failed = 0
        public var dead = 0
        public var cancelled = 0
        public var updatedAt = Timestamp.earliest
    }

    /// A failed or dead job.
    public struct Failure: Sendable, Hashable, Codable {
        public var at: Timestamp
        public var streamId: String
        public var job: String?
        public var batch: String?
        public var worker: String?
        public var code: String
        public var message: String
        public var willRetry: Bool
    }

    /// The queue gauges as last set by `updateQueueGauges`.
    public struct QueueGauges: Sendable, Hashable, Codable {
        /// Ready jobs by priority name (`high`, `normal`, `low`).
        public var depth: [String: Int]
        /// Seconds the oldest ready job has waited, by priority name.
        public var lagSeconds: [String: Double]
        public var delayed: Int?
        public var pending: Int?
        public var deadLetters: Int?
    }

    /// The counters now.
    public func snapshot() -> Snapshot {
        state.withLock { fold in
            Snapshot(
                checkpoint: fold.checkpoint?.rawValue, checkpointTime: fold.lastStreamTime,
                eventsProcessed: fold.eventsProcessed, jobs: fold.outcomes, liveWorkers: fold.liveWorkerCount,
                workers: fold.workers.values.sorted { ($0.lastSeen, $1.name) > ($1.lastSeen, $0.name) },
                batches: fold.batchOrder.reversed().compactMap { fold.batches[$0] },
                failures: fold.failures.reversed(), queue: fold.queue)
        }
    }

    /// When the checkpoint last advanced and when a read last found nothing, for health checks.
    public func progress() -> (advancedAt: ContinuousClock.Instant?, caughtUpAt: ContinuousClock.Instant?) {
        state.withLock { ($0.advancedAt, $0.caughtUpAt) }
    }
}
