import DarkroomSystem

/// A one-way switch with callbacks: "the worker is stopping". Fired once (by a graceful shutdown,
/// `Worker.shutdownGracefully()` or cancellation); everything waiting on it — a sleeping backoff,
/// a blocked `reserve` — is woken at once instead of at its next timeout.
final class StopSignal: Sendable {
    private struct State {
        var fired = false
        var nextID = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Locked(State())

    var isFired: Bool { state.withLock { $0.fired } }

    /// Fires the signal (idempotent) and runs every registered handler once.
    func fire() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.fired else { return [] }
            state.fired = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    /// Runs `body` with `handler` registered: the handler runs if the signal fires meanwhile
    /// (at once if it already has).
    func whileRegistered<T>(_ handler: @escaping @Sendable () -> Void, _ body: () async throws -> T) async rethrows -> T {
        let id = state.withLock { state -> Int? in
            guard !state.fired else { return nil }
            state.nextID += 1
            state.handlers[state.nextID] = handler
            return state.nextID
        }
        if id == nil { handler() }
        defer { if let id { _ = state.withLock { $0.handlers.removeValue(forKey: id) } } }
        return try await body()
    }

    /// Sleeps for `duration`, returning early when the signal fires or the task is cancelled.
    func sleep(for duration: Duration) async {
        let sleeper = Task { try? await Task.sleep(for: duration) }
        await withTaskCancellationHandler {
            await whileRegistered({ sleeper.cancel() }) { await sleeper.value }
        } onCancel: {
            sleeper.cancel()
        }
    }
}
