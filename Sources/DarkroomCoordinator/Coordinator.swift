import DarkroomEventStream
import DarkroomFleetStatus
import DarkroomQueue
import DarkroomSystem
import Logging
import ServiceLifecycle
import Synchronization

/// The coordinator, as a swift-service-lifecycle `Service`. It reads the one event stream with
/// independent readers, each at its own pace and from its own checkpoint, so a slow one never
/// holds up another:
///
/// - **projections** (with a `CoordinatorStore`): each page of events is folded into the per-job,
///   per-batch and per-worker projections and the checkpoint moves with it, atomically
///   (`CoordinatorStore.applyProjections`), so a restart after SIGKILL neither misses nor repeats;
/// - **the event log** (with an `EventLogConfiguration`): each page is appended to the log on the
///   volume, whose own last complete line is its checkpoint (`EventLog`);
/// - **housekeeping**, once a second: renews the lease, publishes `workerOffline` for workers whose
///   heartbeat lapsed, moves due delayed jobs into their streams, and trims the stream behind
///   every reader (keeping at least `JobQueueConfiguration.eventRetention` read events).
///
/// Two coordinators may run at once: the lease elects one, the other waits (logging who holds
/// it) and takes over when the lease lapses. Without a store (the in-memory queue, tests) only the
/// log is written and no lease is taken.
///
/// - A gap — the stream no longer holds the checkpoint's successor, trimmed while the coordinator
///   was away or behind — is written into the log as a gap record, counted, and logged as an error.
/// - Graceful shutdown (ServiceLifecycle's, or `shutdownGracefully()`): each reader finishes the
///   page in hand, the lease is released, then `run` returns; a read waiting for events returns
///   within `pollWait`.
/// - A failing queue is retried with backoff (100 ms doubling to 5 s); a failing log ends `run`
///   with its error, since events the log cannot take must not be acknowledged as read.
public final class Coordinator: Service {
    public struct Configuration: Sendable {
        /// The event log on the volume; nil to keep none.
        public var eventLog: EventLogConfiguration?
        /// The most events read and written (one fsync, one projection script) at once.
        public var batchSize: Int
        /// How long one read waits for new events.
        public var pollWait: Duration
        /// Once the readers have caught up (a page came back short), how long the next read waits
        /// before asking, so that the events of that time are folded, logged and read as one page
        /// (`SharedPages`): the most an event waits before its projection or log line.
        public var gatherWindow: Duration
        /// The name this coordinator holds the lease under (`host:pid` by default).
        public var name: String
        /// How long the lease lasts without renewal; renewed every third of it.
        public var leaseTTL: Duration
        /// The event stream's length cap while this coordinator is registered (see
        /// `CoordinatorStore.registerCoordinator`).
        public var streamCap: Int
        /// How often housekeeping runs.
        public var housekeepingInterval: Duration
        /// How long after a worker's latest event a lapsed heartbeat makes it offline.
        public var workerOfflineGrace: Duration
        /// Another reader of the stream in this process (the webhook notifier): the cursor of the
        /// last event it has read, which trimming never passes; nil (or a nil answer) for none.
        public var trimFloor: (@Sendable () async -> EventCursor?)?

        public init(
            eventLog: EventLogConfiguration?, batchSize: Int = 1000, pollWait: Duration = .seconds(1),
            gatherWindow: Duration = .milliseconds(500), name: String = CoordinatorName.default(),
            leaseTTL: Duration = .seconds(10), streamCap: Int = 1_000_000,
            housekeepingInterval: Duration = .seconds(1), workerOfflineGrace: Duration = .seconds(10)
        ) {
            self.eventLog = eventLog
            self.batchSize = batchSize
            self.pollWait = pollWait
            self.gatherWindow = gatherWindow
            self.name = name
            self.leaseTTL = leaseTTL
            self.streamCap = streamCap
            self.housekeepingInterval = housekeepingInterval
            self.workerOfflineGrace = workerOfflineGrace
        }
    }

    public let configuration: Configuration
    let queue: any JobQueueDriver
    let store: (any CoordinatorStore)?
    let logger: Logger
    let stopping = Atomic<Bool>(false)
    /// Where each reader is, for trimming behind all of them and for `status`.
    let progress: Locked<CoordinatorProgress>
    /// Folds every event once: the projections reader's pages after they are applied (or, with no
    /// store, the log's after they are written), so metrics never count an event twice or one
    /// that was lost.
    public let metrics: CoordinatorMetrics?

    public init(
        queue: any JobQueueDriver, store: (any CoordinatorStore)? = nil, configuration: Configuration, logger: Logger,
        metrics: CoordinatorMetrics? = nil
    ) {
        self.queue = queue
        self.store = store
        self.configuration = configuration
        self.logger = logger
        progress = Locked(CoordinatorProgress(retention: queue.configuration.eventRetention))
        self.metrics = metrics
    }

    /// Begins a graceful shutdown, as a ServiceLifecycle graceful shutdown does.
    public func shutdownGracefully() { stopping.store(true, ordering: .relaxed) }

    var isStopping: Bool { stopping.load(ordering: .relaxed) || Task.isCancelled }

    /// What the readers have done so far.
    public var snapshot: CoordinatorProgress { progress.withLock { $0 } }

    public func run() async throws {
        try await withGracefulShutdownHandler {
            guard let store else {
                if configuration.eventLog != nil {
                    let pages = sharedPages()
                    defer { pages.close() }
                    try await followIntoLog(pages)
                }
                return
            }
            while !isStopping {
                guard try await becomeLeader(store) else { continue }
                do {
                    try await lead(store)
                } catch is LeaseLost {
                    logger.warning("lost the coordinator lease; waiting to take it again", metadata: ["name": "\(configuration.name)"])
                    progress.withLock { $0.isLeader = false }
                    continue
                }
                progress.withLock { $0.isLeader = false }
                try? await store.releaseCoordinatorLease(owner: configuration.name)
            }
        } onGracefulShutdown: {
            self.shutdownGracefully()
        }
        logger.info("coordinator stopped", metadata: ["name": "\(configuration.name)"])
    }

    /// Takes the lease, or waits a third of its time to live when another coordinator holds it.
    private func becomeLeader(_ store: any CoordinatorStore) async throws -> Bool {
        do {
            let holder = try await store.acquireCoordinatorLease(owner: configuration.name, ttl: configuration.leaseTTL)
            if holder == configuration.name {
                try await store.registerCoordinator(owner: configuration.name, streamCap: configuration.streamCap)
                progress.withLock { $0.isLeader = true }
                logger.info("holding the coordinator lease", metadata: ["name": "\(configuration.name)"])
                return true
            }
            if progress.withLock({ $0.waitingFor }) != holder {
                logger.notice("another coordinator holds the lease; waiting", metadata: ["holder": "\(holder)"])
                progress.withLock { $0.waitingFor = holder }
            }
        } catch let error where ErrorSummary(error).isPassingOutage {
            logger.warning("cannot reach the queue to take the lease; retrying", metadata: ["error": "\(error)"])
        }
        try? await Task.sleep(for: configuration.leaseTTL / 3)
        return false
    }

    /// Runs the readers and housekeeping until shutdown, a lost lease (`LeaseLost`) or an error.
    private func lead(_ store: any CoordinatorStore) async throws {
        let pages = sharedPages()
        defer { pages.close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.followIntoProjections(store, pages: pages) }
            if configuration.eventLog != nil { group.addTask { try await self.followIntoLog(pages) } }
            group.addTask { try await self.keepHouse(store) }
            // The first to end (normally all three at shutdown) ends the others.
            do {
                while try await group.next() != nil {}
            } catch {
                group.cancelAll()
                throw error
            }
        }
    }

    /// The readers' page cache: each page read and decoded once for both.
    private func sharedPages() -> SharedPages {
        SharedPages(queue: queue, pageSize: configuration.batchSize, wait: configuration.pollWait, gather: configuration.gatherWindow)
    }

    /// Runs `body` until shutdown, retrying with backoff while the queue is unavailable.
    func repeatUntilStopped(_ what: String, _ body: () async throws -> Void) async throws {
        let backoff = Backoff.reconnect
        var failures = 0
        while !isStopping {
            do {
                try await body()
                failures = 0
            } catch let error where ErrorSummary(error).isPassingOutage {
                failures += 1
                logger.warning("cannot reach the queue (\(what)); retrying", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: backoff.delay(forAttempt: failures))
            }
        }
    }
}

/// Thrown inside the coordinator when another coordinator took the lease.
struct LeaseLost: Error {}
