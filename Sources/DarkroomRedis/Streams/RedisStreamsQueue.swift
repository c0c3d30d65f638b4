import DarkroomQueue
import DarkroomSystem
import Foundation
import Synchronization

/// The Redis Streams `JobQueueDriver`: jobs live in one stream per priority, read through the
/// consumer group `workers`, so any number of worker processes on any number of hosts share them.
/// The key layout is documented on `RedisQueueKeys`, the scripts on `StreamScripts`.
///
/// ## Delivery guarantee
/// At least once. An entry stays in its stream, pending in the group, from delivery until one Lua
/// script acknowledges it *and* publishes its terminal event *and* counts it in its batch — all
/// three or none, and only while `XPENDING` still lists the entry. A worker that dies leaves its
/// entries pending; after `visibilityTimeout` any live worker's `reclaimStale` (`XAUTOCLAIM`) takes
/// them over, and an entry delivered more than `maxAttempts` times is dead-lettered. So every job
/// ends with exactly one terminal event, while a job may *run* more than once (a slow worker whose
/// lease was taken over still finishes; its late acknowledgement publishes nothing).
///
/// Limits: the guarantee is Redis's durability. With AOF `appendfsync everysec` (the usual
/// setting) a Redis crash can lose the last second of writes — enqueued jobs, acknowledgements
/// (the job then runs again) or events; with `always` nothing acknowledged is lost. Redis
/// replication is asynchronous, so a failover can lose recent writes the same way.
///
/// ## Time
/// Delays, retry backoff and heartbeat expiry use the caller's clock (`clock.now()` passed to
/// the scripts); visibility timeouts use Redis's idle times. Workers' clocks are assumed to be
/// NTP-synchronised: skew shifts when delayed jobs become due by the skew, nothing more.
///
/// ## Errors
/// Every Redis failure surfaces as `JobQueueError` with code `.unavailable` and Redis's message
/// (connection refused or lost, timeouts, `LOADING`, script errors): the caller backs off and
/// retries. A consumer group deleted under the driver (`FLUSHALL`, a deleted stream) is recreated
/// once and the call repeated.
public final class RedisStreamsQueue: JobQueueDriver, DeadLetterQueue, CancellableJobQueue, WorkerRegistry,
    ProgressReportingQueue
{
    public let configuration: JobQueueConfiguration
    public let client: RedisClient
    /// The prefix of every key, `darkroom` by default: several queues can share one Redis.
    public let keyPrefix: String
    /// How long an enqueued id is remembered (so enqueueing it again is a no-op) and a batch's
    /// counters are kept after their last change.
    public let idempotencyWindow: Duration
    /// The time delays, retries, event times and heartbeat expiries are measured in (the system's
    /// wall clock by default; a `ManualQueueClock` lets tests move it). Visibility timeouts and
    /// key expiries are Redis's own time and do not follow it.
    public let clock: any QueueClock

    let keys: RedisQueueKeys
    /// Whether this process has created the consumer groups (once per queue object).
    private let groupsReady = Atomic<Bool>(false)

    /// Jobs per enqueue script: big enough that the round trips do not matter, small enough that
    /// one script does not hold up Redis for long (≈ 1,000 jobs take a few milliseconds).
    static let enqueueChunk = 1_000
    /// Enqueue chunks sent per pipeline; the next pipeline is encoded while Redis runs this one.
    static let enqueueChunksPerPipeline = 8
    /// Delayed jobs moved per reserve call (the rest move on the next calls).
    static let promotionLimit = 1_000
    /// The longest one blocking read holds a connection, so cancellation is noticed within it.
    static let longestBlock: Duration = .seconds(2)

    /// - Parameters:
    ///   - client: the Redis client; blocking reads use its dedicated connections, so give it at
    ///     least as many as you run concurrent waiting `reserve`/`readEvents` calls.
    ///   - keyPrefix: the prefix of every key (see `RedisQueueKeys`).
    ///   - idempotencyWindow: how long enqueued ids are remembered. Default 7 days.
    ///   - clock: the caller's time (see `clock`); the system clock by default.
    public init(
        client: RedisClient, configuration: JobQueueConfiguration = JobQueueConfiguration(),
        keyPrefix: String = "darkroom", idempotencyWindow: Duration = .seconds(7 * 24 * 3600),
        clock: any QueueClock = SystemQueueClock()
    ) {
        self.client = client
        self.clock = clock
        self.configuration = configuration
        self.keyPrefix = keyPrefix
        // At least a second: PX 0 is an error, and a shorter window would make no sense.
        self.idempotencyWindow = max(idempotencyWindow, .seconds(1))
        keys = RedisQueueKeys(prefix: keyPrefix)
    }

    /// Creates the consumer group `workers` on the three job streams and on every registered
    /// capability lane (`XGROUP CREATE … 0 MKSTREAM`), ignoring groups that exist. Idempotent; `enqueue`, `reserve` and the other
    /// calls do it once per queue object, so the backlog is visible (`XINFO GROUPS`) before any
    /// worker exists. The group starts at `0`, not `$`: entries written before it existed are
    /// unfinished work too (finished entries are deleted), and must not be skipped.
    public func ensureGroups() async throws {
        do {
            let lanes = try await capabilityLanes().map(keys.stream)
            let commands = (keys.streams + lanes).map { ["XGROUP", "CREATE", $0, RedisQueueKeys.group, "0", "MKSTREAM"] }
            for reply in try await client.pipeline(commands) {
                if case .error(let message) = reply, !message.hasPrefix("BUSYGROUP") { throw RedisError.server(message) }
            }
        } catch let error as RedisError {
            throw Self.queueError(error)
        }
        groupsReady.store(true, ordering: .releasing)
    }

    /// Writes `payload` into the priority's stream exactly as a foreign producer would: no
    /// validation, no idempotency marker, no event. For tests and tooling that exercise the
    /// handling of garbage and of records from newer versions.
    public func enqueueRaw(_ payload: Data, priority: JobPriority = .normal) async throws {
        let arguments = [
            Array("XADD".utf8), Array(keys.stream(priority).utf8), Array("*".utf8),
            Array("job".utf8), Array(payload),
        ]
        _ = try await redis { try await self.client.command(arguments) }
    }

    // MARK: - Plumbing shared by the operations

    /// Runs `body` after making sure the groups exist; recreates them and runs `body` once more
    /// when Redis says a group is missing; turns Redis errors into `JobQueueError`.
    func redis<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        if !groupsReady.load(ordering: .acquiring) { try await ensureGroups() }
        do {
            return try await body()
        } catch let error as RedisError where error.description.contains("NOGROUP") {
            groupsReady.store(false, ordering: .releasing)
            try await ensureGroups()
            do { return try await body() } catch let error as RedisError { throw Self.queueError(error) }
        } catch let error as RedisError {
            throw Self.queueError(error)
        }
    }

    static func queueError(_ error: RedisError) -> JobQueueError {
        JobQueueError(.unavailable, error.description)
    }

    static func check(consumer: String) throws {
        guard JobID.isAcceptable(consumer) else {
            throw JobQueueError(.invalidArgument, "a consumer name must be 1–200 bytes without control characters")
        }
    }

    /// A duration as whole milliseconds for Redis, at least `floor`.
    static func milliseconds(_ duration: Duration, atLeast floor: Int64 = 1) -> Int64 {
        max(duration.wholeMilliseconds, floor)
    }

    /// Compact JSON of any record (the encoder `Job` and `JobEvent` use).
    static func json<T: Encodable>(_ value: T) throws -> Data {
        do { return try RecordJSON.encoder().encode(value) } catch {
            throw JobQueueError(.encoding, "a \(T.self) record could not be encoded: \(error)")
        }
    }
}
