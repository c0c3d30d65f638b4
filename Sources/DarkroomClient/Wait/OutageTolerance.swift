import DarkroomQueue

/// Keeps a long-running reader (`wait`, `events --follow`) alive across a queue restart: a
/// failure that means the queue is out of reach is retried every second, with one note, for up to
/// `limit`; then it is thrown like any other.
public struct OutageTolerance {
    /// How long an outage is ridden out before its error is thrown.
    public var limit: Duration
    private let isOutage: @Sendable (any Error) -> Bool
    private var outageStart: ContinuousClock.Instant?

    /// `isOutage` tells an unreachable queue from an operation that was wrong (which is thrown at
    /// once); by default, a `JobQueueError` with code `.unavailable`, as drivers report outages.
    public init(
        limit: Duration = .seconds(60),
        isOutage: @escaping @Sendable (any Error) -> Bool = OutageTolerance.isQueueUnavailable
    ) {
        self.limit = limit
        self.isOutage = isOutage
    }

    /// Whether `error` is a driver's report that its backend is out of reach.
    public static func isQueueUnavailable(_ error: any Error) -> Bool {
        (error as? JobQueueError)?.code == .unavailable
    }

    /// Call after a failed read: returns normally (after a pause) when the caller should try
    /// again, rethrows when the error is not an outage or the outage lasted too long. `note`
    /// hears, once per outage, that the queue was lost.
    public mutating func absorb(_ error: any Error, note: (String) -> Void) async throws {
        guard isOutage(error) else { throw error }
        let now = ContinuousClock.now
        if let outageStart {
            if now - outageStart > limit { throw error }
        } else {
            outageStart = now
            note("lost the queue (\(error)); retrying for up to \(Int(limit.components.seconds)) s")
        }
        try await Task.sleep(for: .seconds(1))
    }

    /// Call after a successful read; `note` hears that the queue is back when it had been lost.
    public mutating func recovered(note: (String) -> Void) {
        if outageStart != nil {
            outageStart = nil
            note("the queue is reachable again")
        }
    }
}
