import DarkroomSystem
import Synchronization
import Testing

/// Yields until `condition` holds (other tasks run meanwhile; no clock is involved); records an
/// issue instead of hanging when it never does.
func yieldUntil(_ what: String, _ condition: () -> Bool) async {
    for _ in 0..<5_000_000 {
        if condition() { return }
        await Task.yield()
    }
    Issue.record("never happened: \(what)")
}

/// A counter closures running in other tasks can share (kept for its narrower API).
final class Tally: Sendable {
    private let count = Locked(0)

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }

    /// Takes one away.
    func decrement() { count.withLock { $0 -= 1 } }

    var value: Int { count.withLock { $0 } }
}
