/// `WorkLeases` inside one process: several pipelines sharing one disk cache (tests, embedded
/// workers) compute each key once. Same semantics as the Redis leases: a lease expires `ttl` after
/// it was taken or last renewed, and only its token can renew or release it.
public final class MemoryWorkLeases: WorkLeases {
    private struct Held {
        var token: String
        var expires: ContinuousClock.Instant
    }

    private let held = Locked<[String: Held]>([:])
    private let clock = ContinuousClock()

    public init() {}

    public func acquire(_ key: String, ttl: Duration) async throws -> WorkLease? {
        let now = clock.now
        let token = WorkLease.makeToken()
        return held.withLock { leases -> WorkLease? in
            if let current = leases[key], current.expires > now { return nil }
            leases[key] = Held(token: token, expires: now + ttl)
            return WorkLease(key: key, token: token)
        }
    }

    public func renew(_ lease: WorkLease, ttl: Duration) async throws -> Bool {
        let now = clock.now
        return held.withLock { leases in
            guard let current = leases[lease.key], current.token == lease.token, current.expires > now else { return false }
            leases[lease.key]?.expires = now + ttl
            return true
        }
    }

    public func release(_ lease: WorkLease) async throws {
        held.withLock { leases in
            if leases[lease.key]?.token == lease.token { leases[lease.key] = nil }
        }
    }

    public func isHeld(_ key: String) async throws -> Bool {
        let now = clock.now
        return held.withLock { leases in
            guard let current = leases[key] else { return false }
            if current.expires <= now {
                leases[key] = nil
                return false
            }
            return true
        }
    }
}
