import Synchronization

/// The continuous clock moved forward by hand: `now` reads the real clock plus every `advance`
/// so far, so a test can let time-based state (a remembered failure, a log interval) age without
/// sleeping.
public final class ShiftedClock: Sendable {
    private let shift = Mutex<Duration>(.zero)

    public init() {}

    /// The shifted time, for the `now` parameter of the type under test.
    public var now: @Sendable () -> ContinuousClock.Instant {
        { [self] in ContinuousClock.now + shift.withLock { $0 } }
    }

    /// Moves time forward by `duration`.
    public func advance(by duration: Duration) {
        shift.withLock { $0 += duration }
    }
}
