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
        let high = UInt64.random(in: .min ... .max), low = UInt64.random(in: .min ... .max)
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

/// How the pipeline uses leases.
public struct LeaseTiming: Sendable, Hashable {
    /// How long a lease lives without renewal; a crashed holder blocks waiters at most this long.
    /// Renewed every third of it while the work runs.
    public var ttl: Duration
    /// The first wait between looks at the disk cache while another holder works; doubled after
    /// each look up to `longestPoll`.
    public var firstPoll: Duration
    public var longestPoll: Duration

    public init(ttl: Duration = .seconds(10), firstPoll: Duration = .milliseconds(50),
                longestPoll: Duration = .milliseconds(500)) {
        // Clamped rather than trapping: a zero TTL would make every lease expire at once.
        self.ttl = max(ttl, .milliseconds(30))
        self.firstPoll = max(firstPoll, .milliseconds(1))
        self.longestPoll = max(longestPoll, self.firstPoll)
    }
}

/// "Compute once per key across the fleet": run `work` under the lease on `key`, or wait for
/// another holder's result to show up through `lookup`.
enum LeasedWork {
    /// - `lookup` finds a finished result (the shared disk cache); it is asked again right after
    ///   the lease is taken, because the previous holder may have stored it and let go between
    ///   our miss and our acquire.
    /// - A lease store that cannot be reached (Redis down) does not fail the request: the work
    ///   runs without a lease, as it would without a fleet.
    static func run<T: Sendable>(key: String, leases: any WorkLeases, timing: LeaseTiming,
                                 lookup: @escaping @Sendable () async throws -> T?,
                                 work: @escaping @Sendable () async throws -> T) async throws -> T {
        var poll = timing.firstPoll
        while true {
            try Task.checkCancellation()
            let lease: WorkLease?
            do {
                lease = try await leases.acquire(key, ttl: timing.ttl)
            } catch {
                return try await work()
            }
            if let lease {
                return try await holding(lease, leases: leases, timing: timing) {
                    if let found = try await lookup() { return found }
                    return try await work()
                }
            }
            // Someone else is on it: wait for their result, or for their lease to go away (they
            // finished without storing, failed, or died), then try to take it.
            while true {
                try await Task.sleep(for: poll)
                poll = min(poll * 2, timing.longestPoll)
                if let found = try await lookup() { return found }
                let held: Bool
                do { held = try await leases.isHeld(key) } catch { return try await work() }
                if !held { break }
            }
        }
    }

    /// Runs `body` while renewing `lease` every third of its TTL, then releases it.
    private static func holding<T: Sendable>(_ lease: WorkLease, leases: any WorkLeases, timing: LeaseTiming,
                                             _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await body() }
                group.addTask {
                    // Ends when cancelled (the body finished); a failed renewal is harmless: at
                    // worst another worker computes the same result too.
                    while (try? await Task.sleep(for: timing.ttl / 3)) != nil {
                        _ = try? await leases.renew(lease, ttl: timing.ttl)
                    }
                    return nil
                }
                defer { group.cancelAll() }
                while let next = try await group.next() {
                    if let value = next { return value }
                }
                throw CancellationError()
            })
        } catch {
            outcome = .failure(error)
        }
        try? await leases.release(lease)
        return try outcome.get()
    }
}
