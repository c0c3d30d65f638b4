/// A counting semaphore for async code: at most `limit` holders at once, the others wait in
/// order of arrival without blocking a thread.
///
///     try await permits.withPermit { try await work() }
///
/// A task cancelled while it waits leaves the queue and gets `CancellationError`.
public final class AsyncPermits: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var available: Int
        var nextID: UInt64 = 0
        var waiters: [Waiter] = []
        /// Waits cancelled before they queued: their continuation throws as soon as it exists.
        var cancelledEarly: Set<UInt64> = []
    }

    /// Most holders at once.
    public let limit: Int
    private let state: Locked<State>

    public init(limit: Int) {
        self.limit = max(1, limit)
        state = Locked(State(available: max(1, limit)))
    }

    /// Runs `body` holding a permit, waiting for one first if all are held.
    public func withPermit<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await body()
    }

    /// Takes a permit, waiting in turn when none is free. Pair with `release()`.
    public func acquire() async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        enum Outcome { case granted, queued, cancelled }
        defer { _ = state.withLock { $0.cancelledEarly.remove(id) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Outcome in
                    if state.cancelledEarly.remove(id) != nil { return .cancelled }
                    if state.available > 0 && state.waiters.isEmpty {
                        state.available -= 1
                        return .granted
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return .queued
                }
                switch outcome {
                case .granted: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .queued: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    // Not queued yet (or already granted): the closure above sees this.
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Gives a permit back: to the longest waiter, or to the pool.
    public func release() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiters.isEmpty else {
                state.available = min(limit, state.available + 1)
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume()
    }
}
