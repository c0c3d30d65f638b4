/// How long to wait before trying again: the one backoff policy every retry loop uses (job
/// retries, a worker's queue outages, event readers, Redis reconnects, the coordinator).
///
/// Attempt n's ceiling is `min(cap, initial × multiplier^(n−1))`; `jitter` turns the ceiling into
/// the delay. Jitter spreads the retries of a fleet that failed together (a source host down,
/// Redis restarting) so they do not come back in lockstep (AWS Architecture Blog, "Exponential
/// Backoff And Jitter"). Each caller keeps its own numbers as a configuration of this type.
public struct Backoff: Sendable, Hashable {
    /// How the ceiling becomes a delay.
    public enum Jitter: Sendable, Hashable {
        /// Exactly the ceiling: deterministic.
        case none
        /// Uniform in `0 … ceiling`: the widest spread, for job retries.
        case full
        /// Half the ceiling plus a uniform part up to the other half: never less than half.
        case equal
    }

    /// The ceiling of the first retry's delay.
    public var initial: Duration
    /// What each further failure multiplies the ceiling by (at least 1).
    public var multiplier: Double
    /// The largest ceiling, however many attempts failed (at least `initial`).
    public var cap: Duration
    public var jitter: Jitter

    public init(initial: Duration, multiplier: Double = 2, cap: Duration, jitter: Jitter = .full) {
        self.initial = max(initial, .zero)
        self.multiplier = max(multiplier, 1)
        self.cap = max(cap, self.initial)
        self.jitter = jitter
    }

    /// The delay after failed attempt `attempt` (1 = the first attempt failed; lower counts as 1).
    public func delay(forAttempt attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(forAttempt: attempt, using: &generator)
    }

    /// The same, with the randomness from `generator` (a seeded one in tests).
    public func delay(forAttempt attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let ceiling = ceiling(forAttempt: attempt)
        guard ceiling > 0 else { return .zero }
        let chosen: Double
        switch jitter {
        case .none: chosen = ceiling
        case .full: chosen = Double.random(in: 0...ceiling, using: &generator)
        case .equal: chosen = ceiling / 2 + Double.random(in: 0...(ceiling / 2), using: &generator)
        }
        return .nanoseconds(Int64(chosen.rounded()))
    }

    /// The ceiling in nanoseconds. Doubles, not integer shifts: attempt counts come from job
    /// records and must not overflow; whole nanoseconds keep 100 ms × 2ⁿ exact.
    func ceiling(forAttempt attempt: Int) -> Double {
        let cap = Double(self.cap.saturatingNanoseconds)
        var ceiling = Double(initial.saturatingNanoseconds)
        var remaining = max(attempt, 1) - 1
        while remaining > 0 && ceiling > 0 && ceiling < cap && multiplier > 1 {
            ceiling *= multiplier
            remaining -= 1
        }
        return min(ceiling, cap)
    }
}
