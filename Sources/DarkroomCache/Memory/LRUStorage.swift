/// The state behind `MemoryCache`: a dictionary from key to slot, and the slots as a doubly
/// linked list threaded through an array by index (no per-entry objects, no reference counting
/// on the hot path). Every operation is O(1). Not thread-safe on its own: `MemoryCache` holds it
/// in a `Locked`.
struct LRUStorage<Key: Hashable, Value> {
    private struct Slot {
        var key: Key?
        var value: Value?
        var cost: Int
        var newer: Int  // towards the most recently used end; -1 at the head
        var older: Int  // towards the least recently used end; -1 at the tail
    }

    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    private var index: [Key: Int] = [:]
    private var newest = -1
    private var oldest = -1

    let costLimit: Int
    let countLimit: Int
    private(set) var totalCost = 0

    init(costLimit: Int, countLimit: Int) {
        self.costLimit = costLimit
        self.countLimit = countLimit
    }

    var count: Int { index.count }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        moveToFront(slot)
        return slots[slot].value
    }

    /// Stores `value` as the most recently used, then evicts the least recently used entries
    /// until both limits hold. A value costing more than the whole limit is not kept (and drops
    /// any older value for `key`, which would otherwise be stale).
    mutating func set(_ value: Value, for key: Key, cost: Int) {
        let cost = max(0, cost)
        guard cost <= costLimit else {
            removeValue(for: key)
            return
        }
        if let slot = index[key] {
            totalCost -= slots[slot].cost
            slots[slot].value = value
            slots[slot].cost = cost
            totalCost += cost
            moveToFront(slot)
        } else {
            let slot: Int
            let fresh = Slot(key: key, value: value, cost: cost, newer: -1, older: -1)
            if let reused = freeSlots.popLast() {
                slot = reused
                slots[slot] = fresh
            } else {
                slot = slots.count
                slots.append(fresh)
            }
            index[key] = slot
            totalCost += cost
            linkAtFront(slot)
        }
        while totalCost > costLimit || index.count > countLimit, oldest >= 0 {
            evict(oldest)
        }
    }

    @discardableResult
    mutating func removeValue(for key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        let value = slots[slot].value
        evict(slot)
        return value
    }

    mutating func removeAll() {
        slots.removeAll()
        freeSlots.removeAll()
        index.removeAll()
        newest = -1
        oldest = -1
        totalCost = 0
    }

    /// Keys from most to least recently used (for tests and diagnostics; O(n)).
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var slot = newest
        while slot >= 0 {
            if let key = slots[slot].key { keys.append(key) }
            slot = slots[slot].older
        }
        return keys
    }

    private mutating func evict(_ slot: Int) {
        unlink(slot)
        if let key = slots[slot].key { index[key] = nil }
        totalCost -= slots[slot].cost
        slots[slot] = Slot(key: nil, value: nil, cost: 0, newer: -1, older: -1)  // release key and value now
        freeSlots.append(slot)
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        linkAtFront(slot)
    }

    private mutating func linkAtFront(_ slot: Int) {
        slots[slot].newer = -1
        slots[slot].older = newest
        if newest >= 0 { slots[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let newer = slots[slot].newer
        let older = slots[slot].older
        if newer >= 0 { slots[newer].older = older } else { newest = older }
        if older >= 0 { slots[older].newer = newer } else { oldest = newer }
        slots[slot].newer = -1
        slots[slot].older = -1
    }
}
