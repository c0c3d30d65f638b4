import Synchronization

/// The continuous clock moved forward by hand: `now` reads the real clock plus every `advance`
/// so far, so a test can let a remembered failure age without sleeping.
final class ShiftedClock: Sendable {
    private let shift = Mutex<Duration>(.zero)

    /// The shifted time; pass it as `SourceFetcher`'s `now`.
    var now: @Sendable () -> ContinuousClock.Instant {
        { [self] in ContinuousClock.now + shift.withLock { $0 } }
    }

    /// Moves time forward by `duration`.
    func advance(by duration: Duration) {
        shift.withLock { $0 += duration }
    }
}
