import DarkroomFleetStatus
import DarkroomQueue

/// The coordinator's state in Redis, beside the stream it folds: its lease, its checkpoint and the
/// projections (keys in `RedisQueueKeys`, one Lua script per state change in `CoordinatorScripts`).
///
/// It is made from the queue it coordinates and shares everything with it: the connections, the
/// key prefix, the event retention, the idempotency window (how long projections live) and the
/// clock. So the store can never disagree with the queue on where its keys are, and a coordinator
/// opens no connection of its own.
///
///     let queue = RedisStreamsQueue(client: client, keyPrefix: "darkroom")
///     let store = RedisCoordinatorStore(queue: queue)  // or queue.coordinatorStore
public struct RedisCoordinatorStore: CoordinatorStore {
    /// The queue whose events are folded, and whose connections and keys the store uses.
    public let queue: RedisStreamsQueue

    /// How long a registration outlives the coordinator's last write: a coordinator gone longer
    /// than this is no longer registered, and publishers go back to the usual retention.
    public static let registrationTTL: Duration = .seconds(7 * 24 * 3600)

    public init(queue: RedisStreamsQueue) {
        self.queue = queue
    }

    var keys: RedisQueueKeys { queue.keys }

    /// Runs `body` with the queue's plumbing (its consumer groups made sure of, Redis errors turned
    /// into `JobQueueError`): the coordinator's calls fail and recover exactly as the queue's do.
    func redis<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await queue.redis(body)
    }

    /// Runs one of `CoordinatorScripts` on the queue's connections.
    func eval(_ script: RedisScript, keys: [String], arguments: ScriptArguments) async throws -> RedisReply {
        try await queue.eval(script, keys: keys, arguments: arguments)
    }

    static func milliseconds(_ duration: Duration, atLeast floor: Int64 = 1) -> Int64 {
        RedisStreamsQueue.milliseconds(duration, atLeast: floor)
    }

    static func throwing(_ reply: RedisReply) throws {
        do { try reply.throwingOnError() } catch { throw RedisStreamsQueue.queueError(error) }
    }
}

/// The coordinator's Lua scripts, one `static let` each (so every process learns each sha once),
/// each declared in the file of the `RedisCoordinatorStore` operation that calls it (the fold, the
/// longest, in `ApplyProjectionsLua.swift` beside its caller). They follow `StreamScripts`' conventions.
enum CoordinatorScripts {}

extension RedisStreamsQueue: CoordinatorStoreProviding {
    /// The coordinator's store over this queue's Redis, key prefix and clock.
    public var coordinatorStore: any CoordinatorStore { RedisCoordinatorStore(queue: self) }
}
