import DarkroomSystem

/// The worker's concurrency bound: how many jobs are running, and a place for the fetch loop to
/// wait for a free slot (back-pressure: it reserves only as many jobs as it can start now) or,
/// at shutdown, for every job in hand to finish.
///
/// A job in hand is *running* (its pipeline work) and then *settling* (done; its acknowledgement
/// or retry is on its way to the queue). At most `limit` jobs run at once. A settling job no longer
/// holds a running slot — so the next job starts while the previous one's acknowledgement is
/// still in the group commit, and a worker on cache hits is not held to `limit` jobs per queue
/// round trip — but at most `limit` more may be settling (`2 × limit` in hand), so a queue that
/// stops answering acknowledgements stops the reserving too.
///
/// A job may also run *alone* (`takeAlone`): it is taken only once no other job is in hand, and
/// while it is in hand — running, then settling — no slot is free, so it stays the only one until
/// it is out of hand. This is how a redelivered job runs (see `Worker`).
///
/// Only one task waits at a time (the worker's main loop). `stop()` and `abandon()` are sticky:
/// after them the matching waits return at once.
final class JobSlots: Sendable {
    private struct State {
        var running = 0
        var settling = 0
        /// The job in hand runs alone: nothing else is taken until it is out of hand.
        var alone = false
        var stopped = false
        var abandoned = false
        var waiter: (condition: @Sendable (State) -> Bool, continuation: CheckedContinuation<Void, Never>)?

        func free(limit: Int) -> Int {
            stopped || alone ? 0 : max(min(limit - running, 2 * limit - running - settling), 0)
        }
    }

    let limit: Int
    private let state = Locked(State())

    init(limit: Int) { self.limit = max(1, limit) }

    /// Jobs whose work is running now.
    var running: Int { state.withLock { $0.running } }

    /// Jobs in hand: running, or done and waiting for their acknowledgement.
    var inHand: Int { state.withLock { $0.running + $0.settling } }

    /// Free slots now (0 when stopped).
    var free: Int { state.withLock { $0.free(limit: limit) } }

    func take(_ count: Int = 1) { change { $0.running += count } }

    /// A running job's work is over; only its queue bookkeeping remains.
    func settle() {
        change {
            $0.running -= 1
            $0.settling += 1
        }
    }

    /// A job is out of hand; `settled` says whether `settle()` was called for it.
    func give(settled: Bool) {
        change { state in
            if settled { state.settling -= 1 } else { state.running -= 1 }
            if state.running + state.settling == 0 { state.alone = false }
        }
    }

    /// Waits until no job is in hand, then takes a slot for a job that runs alone: no slot is
    /// free until it is out of hand. Returns false, taking nothing, when the slots were stopped
    /// first.
    func takeAlone() async -> Bool {
        await wait { $0.stopped || $0.running + $0.settling == 0 }
        // Only the waiting task takes slots, so nothing was taken since the wait returned.
        var taken = false
        change { state in
            guard !state.stopped else { return }
            state.running += 1
            state.alone = true
            taken = true
        }
        return taken
    }

    /// No more jobs are started: wakes a `waitForFreeSlot`.
    func stop() { change { $0.stopped = true } }

    /// Stop waiting for jobs in hand: wakes a `waitUntilIdle`.
    func abandon() {
        change {
            $0.abandoned = true
            $0.stopped = true
        }
    }

    /// Returns once a slot is free (true) or the slots were stopped (false).
    func waitForFreeSlot() async -> Bool {
        let limit = self.limit
        await wait { $0.stopped || $0.free(limit: limit) > 0 }
        return state.withLock { !$0.stopped }
    }

    /// Returns once no job is in hand (true) or `abandon()` was called first (false).
    func waitUntilIdle() async -> Bool {
        await wait { $0.abandoned || $0.running + $0.settling == 0 }
        return state.withLock { $0.running + $0.settling == 0 }
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
