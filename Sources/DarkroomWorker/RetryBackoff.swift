import DarkroomSystem

/// How long to wait before trying again: exponential with "full jitter" (AWS Architecture Blog,
/// "Exponential Backoff And Jitter"): attempt n waits a uniformly random time in
/// `0 … min(cap, base × 2^(n−1))`. Full jitter spreads the retries of a fleet that failed together
/// (a source host down, Redis restarting) so they do not come back in lockstep.
public struct RetryBackoff: Sendable, Hashable {
    /// Whether delays are randomised.
    public enum Jitter: Sendable, Hashable {
        /// Uniform in `0 … ceiling` (the default).
        case full
        /// Exactly the ceiling: deterministic, for tests.
        case none
    }

    /// The ceiling of the first retry's delay.
    public var base: Duration
    /// The largest ceiling, however many attempts failed.
    public var cap: Duration
    public var jitter: Jitter

    public init(base: Duration, cap: Duration, jitter: Jitter = .full) {
        self.base = max(base, .zero)
        self.cap = max(cap, self.base)
        self.jitter = jitter
    }

    /// Job retries: base 1 s, cap 5 min.
    public static let jobs = RetryBackoff(base: .seconds(1), cap: .seconds(300))
    /// Failing queue operations (Redis unreachable): base 0.5 s, cap 30 s.
    public static let queue = RetryBackoff(base: .milliseconds(500), cap: .seconds(30))
    /// No waiting at all (tests).
    public static let immediate = RetryBackoff(base: .zero, cap: .zero, jitter: .none)

    /// The delay after failed attempt `attempt` (1 = the first attempt failed).
    public func delay(afterAttempt attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(afterAttempt: attempt, using: &generator)
    }

    public func delay(afterAttempt attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        // Doubles, not integer shifts: attempt counts come from job records and must not overflow.
        let exponent = Double(min(max(attempt - 1, 0), 60))
        let ceiling = min(base.inSeconds * Double.pow2(exponent), cap.inSeconds)
        guard ceiling > 0 else { return .zero }
        let chosen = jitter == .full ? Double.random(in: 0...ceiling, using: &generator) : ceiling
        return .nanoseconds(Int64(chosen * 1e9))
    }
}

extension Double {
    fileprivate static func pow2(_ exponent: Double) -> Double {
        var value = 1.0
        var remaining = Int(exponent)
        while remaining > 0 {
            value *= 2
            remaining -= 1
        }
        return value
    }
}
