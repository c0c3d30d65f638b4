import DarkroomQueue

/// A queue driver that keeps a coordinator's projections beside its event stream, and hands out
/// the store that reads and writes them (`RedisStreamsQueue` gives a `RedisCoordinatorStore` over
/// its own connections, key prefix and clock).
///
/// Code that holds only a queue (`FleetClient`'s job look-up, the coordinator's `/status`) asks
/// the queue for its store instead of assuming the queue *is* one: the store is its own type, so
/// the driver stays the job queue and nothing more.
public protocol CoordinatorStoreProviding: Sendable {
    /// The store of the coordinator's state for this queue: the same Redis, the same key prefix.
    var coordinatorStore: any CoordinatorStore { get }
}
