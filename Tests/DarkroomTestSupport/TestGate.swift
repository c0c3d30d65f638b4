import DarkroomSystem
import Testing

/// Holds work in flight until the test opens it, so "concurrent" is guaranteed rather than hoped
/// for, and without sleeping: `pass()` suspends until `open()`, or returns early (saying so) when
/// its task is cancelled.
public final class TestGate: Sendable {
    private struct State {
        var isOpen = false
        var waiting: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextID: UInt64 = 0
        var arrivals = 0
    }

    private let state: Locked<State>

    /// A closed gate, or with `isOpen` one that lets everything through from the start.
    public init(isOpen: Bool = false) { state = Locked(State(isOpen: isOpen)) }

    /// How many times `pass()` has been called.
    public var arrivals: Int { state.withLock { $0.arrivals } }

    /// Waits until the gate is open; false when the task was cancelled first.
    public func pass() async -> Bool {
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
    public func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
    }
}
