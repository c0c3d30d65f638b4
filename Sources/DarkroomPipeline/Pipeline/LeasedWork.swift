import DarkroomSystem

/// "Compute once per key across the fleet": run `work` under the lease on `key`, or wait for
/// another holder's result to show up through `lookup`.
enum LeasedWork {
    /// - `lookup` finds a finished result (the shared disk cache); it is asked again right after
    ///   the lease is taken, because the previous holder may have stored it and let go between
    ///   our miss and our acquire.
    /// - A lease store that cannot be reached (Redis down) does not fail the request: the work
    ///   runs without a lease, as it would without a fleet.
    static func run<T: Sendable>(
        key: String, leases: any WorkLeases, timing: LeaseTiming,
        lookup: @escaping @Sendable () async throws -> T?,
        work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        // Polls double from the first to the longest, as every wait-and-retry in Darkroom does.
        let polls = Backoff(initial: timing.firstPoll, cap: timing.longestPoll, jitter: .none)
        var polled = 0
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
                polled += 1
                try await Task.sleep(for: polls.delay(forAttempt: polled))
                if let found = try await lookup() { return found }
                let held: Bool
                do { held = try await leases.isHeld(key) } catch { return try await work() }
                if !held { break }
            }
        }
    }

    /// Runs `body` while renewing `lease` every third of its TTL, then releases it.
    private static func holding<T: Sendable>(
        _ lease: WorkLease, leases: any WorkLeases, timing: LeaseTiming,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let outcome: Result<T, any Error>
        do {
            outcome = .success(
                try await withThrowingTaskGroup(of: T?.self) { group in
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
