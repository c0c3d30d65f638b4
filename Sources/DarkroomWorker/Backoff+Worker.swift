import DarkroomSystem

/// The worker's configurations of the one backoff policy: full jitter, doubling.
extension Backoff {
    /// Job retries: 1 s, doubling to 5 min, full jitter.
    public static let jobs = Backoff(initial: .seconds(1), cap: .seconds(300))
    /// Failing queue operations (Redis unreachable): 0.5 s, doubling to 30 s, full jitter.
    public static let queue = Backoff(initial: .milliseconds(500), cap: .seconds(30))
    /// No waiting at all (tests).
    public static let immediate = Backoff(initial: .zero, cap: .zero, jitter: .none)
}
