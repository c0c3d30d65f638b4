import DarkroomSystem
import Synchronization

/// A thread-safe in-memory LRU cache limited by total cost (bytes, typically) and entry count,
/// for recently fetched originals and small results, so a burst of jobs on one source touches
/// neither the disk nor the network each time.
///
/// Every operation is O(1) under one lock (`Locked`); values are returned by copy, which for
/// `[UInt8]` is a reference-count increment, not a byte copy.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let storage: Locked<LRUStorage<Key, Value>>

    /// - Parameters:
    ///   - costLimit: the most total cost kept; storing beyond it evicts least recently used entries.
    ///   - countLimit: the most entries kept, whatever their cost.
    public init(costLimit: Int, countLimit: Int = .max) {
        // Capped at half of Int.max so totalCost + one more cost can never overflow.
        storage = Locked(LRUStorage(costLimit: min(max(0, costLimit), Int.max / 2), countLimit: max(0, countLimit)))
    }

    /// The value for `key`, which becomes the most recently used; nil when absent.
    public func value(for key: Key) -> Value? {
        storage.withLock { $0.value(for: key) }
    }

    /// Stores `value` for `key` with `cost` (e.g. its byte count), evicting least recently used
    /// entries until both limits hold. A value costing more than `costLimit` is not stored.
    public func set(_ value: Value, for key: Key, cost: Int) {
        storage.withLock { $0.set(value, for: key, cost: cost) }
    }

    /// Removes and returns the value for `key`.
    @discardableResult
    public func removeValue(for key: Key) -> Value? {
        storage.withLock { $0.removeValue(for: key) }
    }

    /// Removes everything (e.g. under memory pressure).
    public func removeAll() {
        storage.withLock { $0.removeAll() }
    }

    /// The summed cost of the entries held.
    public var totalCost: Int { storage.withLock { $0.totalCost } }

    /// The number of entries held.
    public var count: Int { storage.withLock { $0.count } }

    public var costLimit: Int { storage.withLock { $0.costLimit } }
    public var countLimit: Int { storage.withLock { $0.countLimit } }

    /// Keys from most to least recently used. O(n): for tests and diagnostics.
    public var keysByRecency: [Key] { storage.withLock { $0.keysByRecency } }
}
