import DarkroomSystem

/// A clock that moves only when told to, for tests of delays and visibility timeouts without
/// sleeping. Sleepers wake when `advance` reaches their deadline.
public final class ManualQueueClock: QueueClock {
    private struct Sleeper {
        var deadline: Timestamp
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Timestamp
        var sleepers: [UInt64: Sleeper] = [:]
        /// Ids whose task was cancelled before they registered, so they must not wait at all.
        var cancelledEarly: Set<UInt64> = []
        var nextID: UInt64 = 0
    }

    private let state: Locked<State>

    /// A clock reading `start` (by default a fixed, round instant, so test output is stable).
    public init(start: Timestamp = Timestamp(millisecondsSince1970: 1_750_000_000_000)) {
        state = Locked(State(now: start))
    }

    public func now() -> Timestamp { state.withLock { $0.now } }

    /// Moves time forward by `duration` and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.now = state.now.adding(duration)
            let now = state.now
            let dueIDs = state.sleepers.filter { $0.value.deadline <= now }.map(\.key)
            return dueIDs.compactMap { state.sleepers.removeValue(forKey: $0)?.continuation }
        }
        // Resumed outside the lock: a resumed task may call back into the clock at once.
        for continuation in due { continuation.resume() }
    }

    public func sleep(until deadline: Timestamp) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Action { case wait, resume, cancel }
                let action = state.withLock { state -> Action in
                    if state.cancelledEarly.remove(id) != nil { return .cancel }
                    if state.now >= deadline { return .resume }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .wait
                }
                switch action {
                case .wait: break
                case .resume: continuation.resume()
                case .cancel: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                if let sleeper = state.sleepers.removeValue(forKey: id) { return sleeper.continuation }
                state.cancelledEarly.insert(id)
                return nil
            }
            continuation?.resume(throwing: CancellationError())
        }
    }
}
