import DarkroomSystem

/// Counts calls, holds nothing.
final class RecordingLeases: WorkLeases {
    private let count = Locked(0)
    var calls: Int { count.withLock { $0 } }
    func acquire(_ key: String, ttl: Duration) async throws -> WorkLease? {
        count.withLock { $0 += 1 }
        return WorkLease(key: key, token: "t")
    }
    func renew(_ lease: WorkLease, ttl: Duration) async throws -> Bool {
        count.withLock { $0 += 1 }
        return true
    }
    func release(_ lease: WorkLease) async throws { count.withLock { $0 += 1 } }
    func isHeld(_ key: String) async throws -> Bool {
        count.withLock { $0 += 1 }
        return false
    }
}

/// Memory leases where the first acquire of each `result:` key is taken by a ghost holder (a
/// worker that died at once): the caller is told the lease is held, and it expires after `ghostTTL`.
final class GhostHolderLeases: WorkLeases {
    private let inner = MemoryWorkLeases()
    private let ghostTTL: Duration
    private let ghosted = Locked<Set<String>>([])

    init(ghostTTL: Duration) { self.ghostTTL = ghostTTL }

    var ghosts: Int { ghosted.withLock { $0.count } }

    func acquire(_ key: String, ttl: Duration) async throws -> WorkLease? {
        if key.hasPrefix("result:"), ghosted.withLock({ $0.insert(key).inserted }) {
            _ = try await inner.acquire(key, ttl: ghostTTL)
            return nil
        }
        return try await inner.acquire(key, ttl: ttl)
    }

    func renew(_ lease: WorkLease, ttl: Duration) async throws -> Bool { try await inner.renew(lease, ttl: ttl) }
    func release(_ lease: WorkLease) async throws { try await inner.release(lease) }
    func isHeld(_ key: String) async throws -> Bool { try await inner.isHeld(key) }
}
