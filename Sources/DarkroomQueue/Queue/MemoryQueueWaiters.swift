/// Reservers and event readers suspended in a `MemoryQueue`, woken when something they wait for
/// may have arrived. Every waiter of a kind is woken and re-checks: there are few waiters (one per
/// worker loop or follower), and a spurious wake-up only costs one look at the state.
struct MemoryQueueWaiters {
    enum Kind { case work, events }

    private var waiting: [UInt64: (kind: Kind, continuation: CheckedContinuation<Void, Never>)] = [:]
    /// Ids handed out whose continuation is not registered yet.
    private var issued: Set<UInt64> = []
    /// Issued ids resumed (by their timer or cancellation) before registering: they must not wait.
    private var resumedEarly: Set<UInt64> = []
    private var nextID: UInt64 = 0

    mutating func makeID() -> UInt64 {
        nextID += 1
        issued.insert(nextID)
        return nextID
    }

    mutating func register(_ id: UInt64, kind: Kind, continuation: CheckedContinuation<Void, Never>) {
        issued.remove(id)
        if resumedEarly.remove(id) != nil {
            continuation.resume()
        } else {
            waiting[id] = (kind, continuation)
        }
    }

    /// Resumes one waiter; a no-op for one already resumed.
    mutating func resume(_ id: UInt64) {
        if let waiter = waiting.removeValue(forKey: id) {
            waiter.continuation.resume()
        } else if issued.contains(id) {
            resumedEarly.insert(id)
        }
    }

    mutating func wake(_ kind: Kind) {
        let ids = waiting.filter { $0.value.kind == kind }.map(\.key)
        for id in ids { waiting.removeValue(forKey: id)?.continuation.resume() }
    }
}
