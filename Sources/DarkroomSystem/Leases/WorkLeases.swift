/// A held lease on one piece of fleet-wide work (`result:<resultKey>`, `source:<sourceKey>`).
/// The token tells this holder from a later one, so an expired holder can neither renew nor
/// release a lease someone else has taken since.
public struct WorkLease: Sendable, Hashable {
    public let key: String
    public let token: String

    public init(key: String, token: String) {
        self.key = key
        self.token = token
    }

    /// A fresh holder token: 128 random bits as hex, so a stale holder never matches a new one.
    public static func makeToken() -> String {
        let high = UInt64.random(in: .min ... .max)
        let low = UInt64.random(in: .min ... .max)
        return String(high, radix: 16) + "-" + String(low, radix: 16)
    }
}

/// Short, expiring locks on computations shared by a fleet (Redis `SET NX PX` + compare-token
/// scripts; `MemoryWorkLeases` in one process). A worker takes the lease on a result's cache key
/// before computing it; another worker that finds the lease taken waits for the result to appear
/// in the shared disk cache instead of computing it again. A holder that dies stops renewing, so
/// its lease expires after its TTL and a waiter takes over: leases are an optimisation, never a
/// correctness requirement.
public protocol WorkLeases: Sendable {
    /// Takes the lease on `key` for `ttl`, or returns nil when someone else holds it.
    func acquire(_ key: String, ttl: Duration) async throws -> WorkLease?
    /// Extends a held lease to `ttl` from now; false when it expired or another holder has it.
    func renew(_ lease: WorkLease, ttl: Duration) async throws -> Bool
    /// Gives the lease up, if it is still this holder's.
    func release(_ lease: WorkLease) async throws
    /// Whether anyone holds `key` now.
    func isHeld(_ key: String) async throws -> Bool
}
