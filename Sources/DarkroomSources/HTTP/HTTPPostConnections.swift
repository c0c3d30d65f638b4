import DarkroomSystem

/// Kept connections for `HTTPPost`: libcurl handles that each hold at most one open connection,
/// taken for a request and put back after an answer, so a receiver sees a few long-lived
/// connections instead of a new one per POST (a connect, and at 1,000 a second the kernel's
/// share of the sender's time, measured in docs/benchmarks.md "HTTP API").
///
/// The fetching policy's guard holds for every connection: a connection is checked against the
/// address rule when libcurl opens it (its open-socket callback), and a reused one skips that
/// callback, which is sound only because handles are kept per origin *and* policy (the address
/// rule included), so a connection is reused only under the rule it was checked with. Bounded:
/// at most `maxIdlePerOrigin` idle handles per origin and `maxIdle` in all (the least recently
/// used are closed), and a connection idle longer than `maxIdleAge` is never reused (libcurl's
/// `CURLOPT_MAXAGE_CONN`, and the pool closes such handles when it is next used).
public final class HTTPPostConnections: Sendable {
    struct Key: Hashable {
        /// `scheme://host:port`.
        var origin: String
        var policy: SourcePolicy
    }

    private struct Idle {
        let handle: KeptHandle
        let key: Key
        let since: ContinuousClock.Instant
    }

    public let maxIdlePerOrigin: Int
    public let maxIdle: Int
    public let maxIdleAge: Duration
    private let idle = Locked<[Idle]>([])

    public init(maxIdlePerOrigin: Int = 16, maxIdle: Int = 64, maxIdleAge: Duration = .seconds(30)) {
        self.maxIdlePerOrigin = max(0, maxIdlePerOrigin)
        self.maxIdle = max(0, maxIdle)
        self.maxIdleAge = maxIdleAge
    }

    /// Handles kept idle now.
    public var idleCount: Int { idle.withLock { $0.count } }

    /// The most recently used idle handle for `key`, or nil; handles past `maxIdleAge` are closed.
    func take(_ key: Key) -> CurlTransfer? {
        let now = ContinuousClock.now
        let (handle, expired) = idle.withLock { idle -> (KeptHandle?, [KeptHandle]) in
            let expired = idle.filter { now - $0.since > maxIdleAge }.map(\.handle)
            idle.removeAll { now - $0.since > maxIdleAge }
            guard let index = idle.lastIndex(where: { $0.key == key }) else { return (nil, expired) }
            return (idle.remove(at: index).handle, expired)
        }
        // Returned from the lock so the handles close (a system call each) outside it.
        _ = expired
        return handle?.transfer
    }

    /// Keeps `transfer` (its connection open) for the next request to `key`, closing the least
    /// recently used handles past the bounds.
    func put(_ transfer: CurlTransfer, for key: Key) {
        let entry = Idle(handle: KeptHandle(transfer), key: key, since: .now)
        let closed = idle.withLock { idle -> [KeptHandle] in
            idle.append(entry)
            var closed: [KeptHandle] = []
            if idle.filter({ $0.key == key }).count > maxIdlePerOrigin, let oldest = idle.firstIndex(where: { $0.key == key }) {
                closed.append(idle.remove(at: oldest).handle)
            }
            while idle.count > maxIdle { closed.append(idle.removeFirst().handle) }
            return closed
        }
        // Returned from the lock so the handles close outside it.
        _ = closed
    }

    /// Closes every kept connection.
    public func closeAll() {
        let closed = idle.withLock { idle -> [Idle] in
            defer { idle = [] }
            return idle
        }
        _ = closed
    }
}

/// A kept `CurlTransfer` crossing threads through the pool.
///
/// `@unchecked Sendable`: a handle is used by one thread at a time. It is either in the pool's
/// list (touched only under its lock) or taken out of it by exactly one `HTTPPost` request, which
/// uses it on one `BlockingWorkPool` thread and puts it back when done; libcurl allows an easy
/// handle to move between threads as long as no two use it at once.
private final class KeptHandle: @unchecked Sendable {
    let transfer: CurlTransfer
    init(_ transfer: CurlTransfer) { self.transfer = transfer }
}
