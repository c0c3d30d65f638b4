import Synchronization
import Testing

/// Holds work in flight until the test opens it, so "concurrent" is guaranteed rather than hoped
/// for, and without sleeping: `pass()` suspends until `open()`, or returns early (saying so) when
/// its task is cancelled.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiting: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextID: UInt64 = 0
        var arrivals = 0
    }

    private let state = Mutex(State())

    /// How many times `pass()` has been called.
    var arrivals: Int { state.withLock { $0.arrivals } }

    /// Waits until the gate is open; false when the task was cancelled first.
    func pass() async -> Bool {
        let id = state.withLock { state in
            state.arrivals += 1
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let proceed = state.withLock { state in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiting[id] = continuation
                    return false
                }
                if proceed { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
        }
        return !Task.isCancelled
    }

    /// Lets every held and future `pass()` through.
    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }
}

/// Yields until `condition` holds (other tasks run meanwhile; no clock is involved); records an
/// issue instead of hanging when it never does.
func yieldUntil(_ what: String, _ condition: () -> Bool) async {
    for _ in 0..<5_000_000 {
        if condition() { return }
        await Task.yield()
    }
    Issue.record("never happened: \(what)")
}

/// A counter closures running in other tasks can share (a `Mutex` itself cannot be captured).
final class Tally: Sendable {
    private let count = Mutex(0)

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }

    var value: Int { count.withLock { $0 } }
}
