import DarkroomSystem

/// Continuous-clock instants that move only when told to: `now` reads the instant the clock was
/// made at plus every `advance` so far, never the real time, so a test of time-based state (a
/// remembered failure, a log interval) decides exactly when time passes, however slow the machine.
public final class ManualInstantClock: Sendable {
    private let start = ContinuousClock.now
    private let offset = Locked<Duration>(.zero)

    public init() {}

    /// The clock's time, for the `now` parameter of the type under test.
    public var now: @Sendable () -> ContinuousClock.Instant {
        { [self] in start + offset.withLock { $0 } }
    }

    /// Moves time forward by `duration`.
    public func advance(by duration: Duration) {
        offset.withLock { $0 += duration }
    }
}
