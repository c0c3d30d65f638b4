import DarkroomQueue
import DarkroomRedis
import DarkroomSources
import DarkroomSystem
import Logging
import ServiceLifecycle
import Synchronization

/// Turns terminal job events into webhook deliveries and sends them: a `Service` that runs in the
/// coordinator process beside the `Coordinator`, with readers and tasks of its own, so a slow or
/// down receiver never holds up the coordinator's projections or log.
///
/// - **ingest** reads the event stream after its own checkpoint (`P:webhooks:cursor`), looks up
///   each terminal job event's subscription (`RedisWebhookSubscriptions`) and adds a delivery to
///   the outbox whose id is the event's id, adds a `batch.ended` for each subscribed batch the
///   page leaves complete (`BatchEndNotice`), then moves the checkpoint. A crash between the two
///   reads the page again; the ids make the second add a no-op.
/// - **send** claims due deliveries (at most `concurrency` at a time) and POSTs them
///   (`WebhookSender`), each bounded by its timeouts; failures are retried with `backoff` until
///   the outbox's retry window ends. Idle, it looks again every `idlePoll`, or at once when
///   ingest adds a page's deliveries (`SenderWakeup`). Endpoints and secrets are read at most
///   once per `endpointCacheTTL` each, and connections are kept per endpoint origin.
/// - One notifier works at a time, the holder of `P:webhooks:lease` (renewed every third of
///   `leaseTTL`, lapsing after it); another coordinator's notifier takes over from the outbox in
///   Redis.
public final class WebhookNotifier: Service {
    public struct Configuration: Sendable {
        public var name: String
        public var leaseTTL: Duration = .seconds(10)
        /// Deliveries in flight at once.
        public var concurrency = 16
        /// Per request: seconds to connect, seconds in all, the most response bytes read.
        public var connectTimeout: Double = 5
        public var totalTimeout: Double = 10
        public var maxResponseBytes = 64 << 10
        /// Between failed attempts: 1 s doubling to 1 h, with full jitter.
        public var backoff = Backoff(initial: .seconds(1), multiplier: 2, cap: .seconds(3600), jitter: .full)
        /// How long one read of the event stream waits, and the sender's idle poll.
        public var pollWait: Duration = .seconds(1)
        /// Once ingest has caught up (a page came back short), how long it waits before the next
        /// read, so the events of that time make one page (one read, one subscription look-up,
        /// one checkpoint write): the most this adds to a delivery's latency, kept well inside
        /// the p99 target of 100 ms (docs/benchmarks.md, "Webhook latency").
        public var gatherWindow: Duration = .milliseconds(25)
        public var idlePoll: Duration = .milliseconds(100)
        /// How long the sender uses an endpoint and its secrets as read (a rotation, a retired
        /// secret or a removal is seen within this time).
        public var endpointCacheTTL: Duration = .seconds(1)
        /// Kept connections: idle ones per endpoint origin and in all, and the longest a connection
        /// may sit idle and still be reused.
        public var maxIdleConnectionsPerOrigin = 16
        public var maxIdleConnections = 64
        public var maxIdleConnectionAge: Duration = .seconds(30)

        public init(name: String) { self.name = name }
    }

    let configuration: Configuration
    let queue: any JobQueueDriver & ProgressReportingQueue
    let client: RedisClient
    let keys: RedisWebhookKeys
    let outbox: RedisWebhookOutbox
    let subscriptions: RedisWebhookSubscriptions
    let sender: WebhookSender
    let batchEnds: BatchEndNotice
    /// Who submitted each job and batch, for the per-key cap; nil: every delivery is counted as
    /// work without a key.
    let owners: (any WebhookOwnerLookup)?
    let logger: Logger
    let stopping = Atomic<Bool>(false)
    let leading = Atomic<Bool>(false)
    let wakeup = SenderWakeup()

    public init(
        queue: any JobQueueDriver & ProgressReportingQueue, client: RedisClient, keyPrefix: String, outbox: RedisWebhookOutbox,
        configuration: Configuration, owners: (any WebhookOwnerLookup)? = nil, logger: Logger
    ) {
        self.queue = queue
        self.owners = owners
        self.client = client
        self.configuration = configuration
        self.logger = logger
        self.outbox = outbox
        keys = RedisWebhookKeys(prefix: keyPrefix)
        subscriptions = RedisWebhookSubscriptions(client: client, keyPrefix: keyPrefix)
        batchEnds = BatchEndNotice(client: client, keys: RedisWebhookKeys(prefix: keyPrefix), outbox: outbox)
        sender = WebhookSender(
            endpoints: WebhookEndpointCache(
                store: RedisWebhookEndpointStore(client: client, keyPrefix: keyPrefix), timeToLive: configuration.endpointCacheTTL),
            connections: HTTPPostConnections(
                maxIdlePerOrigin: configuration.maxIdleConnectionsPerOrigin, maxIdle: configuration.maxIdleConnections,
                maxIdleAge: configuration.maxIdleConnectionAge),
            outbox: outbox,
            backoff: configuration.backoff, connectTimeout: configuration.connectTimeout,
            totalTimeout: configuration.totalTimeout, maxResponseBytes: configuration.maxResponseBytes)
    }

    /// The cursor of the last event the notifier has read (shared by every notifier of the
    /// fleet), or nil before its first page: the coordinator trims the stream no further
    /// (`Coordinator.Configuration.trimFloor`).
    public func checkpoint() async -> EventCursor? {
        try? await client.command(["GET", keys.cursor]).string.map(EventCursor.init(rawValue:))
    }

    /// Whether this notifier holds the lease (and so sends) now.
    public var isLeading: Bool { leading.load(ordering: .relaxed) }

    var isStopping: Bool { stopping.load(ordering: .relaxed) || Task.isCancelled }

    /// Stops both loops after the work in hand.
    public func shutdownGracefully() { stopping.store(true, ordering: .relaxed) }

    public func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.ingestLoop() }
                group.addTask { await self.sendLoop() }
            }
        } onGracefulShutdown: {
            self.shutdownGracefully()
        }
        if leading.load(ordering: .relaxed) {
            _ = try? await client.evalsha(Self.releaseScript, keys: [keys.lease], arguments: [configuration.name])
        }
    }

    // MARK: lease

    private static let leaseScript = RedisScript(
        """
        local holder = redis.call('GET', KEYS[1])
        if holder == false or holder == ARGV[1] then
          redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
          return 1
        end
        return 0
        """)

    private static let releaseScript = RedisScript(
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0")

    /// Takes or renews the lease; true while this notifier holds it.
    func holdLease() async throws -> Bool {
        let ttl = configuration.leaseTTL.components.seconds * 1000
        let reply = try await client.evalsha(Self.leaseScript, keys: [keys.lease], arguments: [configuration.name, "\(ttl)"])
        let held = reply.integer == 1
        if held != leading.exchange(held, ordering: .relaxed) {
            logger.info(held ? "holding the webhook lease" : "another notifier holds the webhook lease", metadata: ["name": "\(configuration.name)"])
        }
        return held
    }
}
