import DarkroomSystem

/// The keys this process authenticated lately, by token digest, each for at most `ttl` (≤ 5 s):
/// a request with a recently seen token costs no Redis round trip, and a key revoked by another
/// process stops authenticating here when its entry expires, within `ttl`.
///
/// Only successes are kept (a key created a moment ago must work at once, and remembering every
/// garbage token would let a client fill the memory), and at most `capacity` of them.
final class AuthenticatedKeyCache: Sendable {
    private struct Entry {
        var key: APIKey
        var expires: ContinuousClock.Instant
    }

    /// The longest an entry lives: the bound on how late a revocation reaches a process.
    static let longestTTL: Duration = .seconds(5)

    let ttl: Duration
    private let capacity: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let entries = Locked<[String: Entry]>([:])

    init(ttl: Duration, capacity: Int = 10_000, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.ttl = min(max(ttl, .zero), Self.longestTTL)
        self.capacity = max(capacity, 1)
        self.now = now
    }

    /// The key cached for `digest`, unless its entry has expired.
    func key(digest: String) -> APIKey? {
        let time = now()
        return entries.withLock { entries in
            guard let entry = entries[digest] else { return nil }
            guard entry.expires > time else {
                entries[digest] = nil
                return nil
            }
            return entry.key
        }
    }

    /// Remembers that `digest` authenticated `key`, until `ttl` from now.
    func insert(_ key: APIKey, digest: String) {
        guard ttl > .zero else { return }
        let time = now()
        entries.withLock { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value.expires > time }
                if entries.count >= capacity { entries.removeAll() }
            }
            entries[digest] = Entry(key: key, expires: time + ttl)
        }
    }

    /// Forgets every entry of the key `id` (revoked by this process: at once, not after `ttl`).
    func remove(id: String) {
        entries.withLock { entries in entries = entries.filter { $0.value.key.id != id } }
    }
}
