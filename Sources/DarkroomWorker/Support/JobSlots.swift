import Synchronization

/// The worker's concurrency bound: how many jobs are running, and a place for the fetch loop to
/// wait for a free slot (back-pressure: it reserves only as many jobs as it can start now) or,
/// at shutdown, for every job to finish.
///
/// Only one task waits at a time (the worker's main loop). `stop()` and `abandon()` are sticky:
/// after them the matching waits return at once.
final class JobSlots: Sendable {
    private struct State {
        var running = 0
        var stopped = false
        var abandoned = false
        var waiter: (condition: @Sendable (State) -> Bool, continuation: CheckedContinuation<Void, Never>)?
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = max(1, limit) }

    var running: Int { state.withLock { $0.running } }

    /// Free slots now (0 when stopped).
    var free: Int { state.withLock { $0.stopped ? 0 : max(limit - $0.running, 0) } }

    func take(_ count: Int = 1) { change { $0.running += count } }

    func give() { change { $0.running -= 1 } }

    /// No more jobs are started: wakes a `waitForFreeSlot`.
    func stop() { change { $0.stopped = true } }

    /// Stop waiting for running jobs: wakes a `waitUntilIdle`.
    func abandon() { change { $0.abandoned = true; $0.stopped = true } }

    /// Returns once a slot is free (true) or the slots were stopped (false).
    func waitForFreeSlot() async -> Bool {
        let limit = self.limit
        await wait { $0.stopped || $0.running < limit }
        return state.withLock { !$0.stopped }
    }

    /// Returns once no job is running (true) or `abandon()` was called first (false).
    func waitUntilIdle() async -> Bool {
        await wait { $0.abandoned || $0.running == 0 }
        return state.withLock { $0.running == 0 }
    }

    private func wait(until condition: @escaping @Sendable (State) -> Bool) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if condition(state) { return true }
                    state.waiter = (condition, continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            abandon()
        }
    }

    private func change(_ update: (inout State) -> Void) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            update(&state)
            guard let waiter = state.waiter, waiter.condition(state) else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        continuation?.resume()
    }
}
