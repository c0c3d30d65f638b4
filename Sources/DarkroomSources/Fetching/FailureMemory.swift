/// Sources that failed permanently, remembered for a while so they are not fetched again at once
/// (SDWebImage's failed-URL list, with an expiry and a size bound).
///
/// Entries expire `duration` after the failure. At most `capacity` are kept: when full, the
/// oldest is dropped. Insertion order is expiry order (the duration is fixed), so expired and
/// evicted entries both leave from the front of one FIFO.
struct FailureMemory<Key: Hashable & Sendable>: Sendable {
    struct Entry: Sendable {
        let error: SourceError
        let failedAt: ContinuousClock.Instant
        let serial: UInt64
    }

    let duration: Duration
    let capacity: Int
    private var entries: [Key: Entry] = [:]
    /// Keys in the order they were remembered; an item whose serial no longer matches its entry's
    /// is stale (the key was forgotten or remembered again) and is skipped.
    private var order: [(key: Key, serial: UInt64)] = []
    private var head = 0
    private var nextSerial: UInt64 = 0

    init(duration: Duration, capacity: Int) {
        self.duration = duration
        self.capacity = max(1, capacity)
    }

    var count: Int { entries.count }

    /// The remembered failure for `key` and how long ago it happened, or nil (an expired entry
    /// is forgotten).
    mutating func recall(_ key: Key, now: ContinuousClock.Instant) -> (error: SourceError, age: Duration)? {
        guard let entry = entries[key] else { return nil }
        let age = entry.failedAt.duration(to: now)
        guard age < duration else {
            entries[key] = nil
            return nil
        }
        return (entry.error, age)
    }

    /// Remembers `error` for `key`, dropping expired entries and, when full, the oldest.
    mutating func remember(_ error: SourceError, for key: Key, now: ContinuousClock.Instant) {
        guard duration > .zero else { return }
        let duration = duration
        dropFront { $0.failedAt.duration(to: now) >= duration }
        if entries[key] == nil {
            while entries.count >= capacity, dropOldest() {}
        }
        nextSerial += 1
        entries[key] = Entry(error: error, failedAt: now, serial: nextSerial)
        order.append((key, nextSerial))
        compactIfNeeded()
    }

    /// Forgets everything.
    mutating func removeAll() {
        entries.removeAll()
        order.removeAll()
        head = 0
    }

    /// Removes live entries from the front while `shouldDrop` says so; skips stale items.
    private mutating func dropFront(while shouldDrop: (Entry) -> Bool) {
        while head < order.count {
            let item = order[head]
            if let entry = entries[item.key], entry.serial == item.serial {
                guard shouldDrop(entry) else { return }
                entries[item.key] = nil
            }
            head += 1
        }
    }

    /// Drops the oldest live entry; false when there is none.
    private mutating func dropOldest() -> Bool {
        let before = entries.count
        var budget = 1
        dropFront { _ in
            budget -= 1
            return budget >= 0
        }
        return entries.count < before
    }

    /// Keeps `order` proportional to `entries`: stale items are removed once they outnumber the
    /// live ones, so the FIFO cannot grow without bound when keys are forgotten and remembered.
    private mutating func compactIfNeeded() {
        let live = order.count - head
        guard (head > 64 && head * 2 > order.count) || live > 2 * entries.count + 64 else { return }
        order = order[head...].filter { entries[$0.key]?.serial == $0.serial }
        head = 0
    }
}
