import DarkroomQueue
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
/// Jobs are also bounded by how many have not *started* yet (`ahead`): a job counts from its
/// reservation until its work starts (its CPU work, or its result is found in a cache: the
/// pipeline's `ImageRequest.onWorkStart`) or it leaves the running state. At most `ahead` such
/// jobs are held, so a worker reserves only what its CPU pool will reach soon — a killed worker
/// strands at most `ahead` jobs that had not started — while cache hits, which start at once,
/// still fill every slot. While jobs keep finding their results in a cache, each hit in a row
/// lets one more unstarted job be held (`hitStreak`, up to `limit`): a worker serving cache hits
/// reserves as many jobs per queue call as it did without the bound (one call per `ahead` jobs
/// halved its rate), and the first job that computes ends the streak. So the bound is `ahead`
/// unstarted jobs while the worker computes, and up to `limit` in the moment cache hits give way
/// to jobs that compute.
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
        /// Running jobs whose work has not started.
        var waiting = 0
        /// Jobs in a row whose work was a cache hit, up to `limit`; 0 once one computes.
        var hitStreak = 0
        /// Jobs reserved by an acknowledgement flush, holding their slots, for the main loop to start.
        var inbox: [JobDelivery] = []
        /// The job in hand runs alone: nothing else is taken until it is out of hand.
        var alone = false
        /// A job waits to run alone (`takeAlone`): nothing else is taken meanwhile, not even by an
        /// acknowledgement's reservation (`claim`), or the jobs in hand would never run out.
        var awaitingAlone = false
        var stopped = false
        var abandoned = false
        var waiter: (condition: @Sendable (State) -> Bool, continuation: CheckedContinuation<Void, Never>)?

        func free(limit: Int, ahead: Int) -> Int {
            stopped || alone || awaitingAlone
                ? 0 : max(min(limit - running, 2 * limit - running - settling, ahead + hitStreak - waiting), 0)
        }
    }

    let limit: Int
    /// The most running jobs whose work has not started.
    let ahead: Int
    private let state = Locked(State())

    init(limit: Int, ahead: Int? = nil) {
        self.limit = max(1, limit)
        self.ahead = max(1, ahead ?? limit)
    }

    /// Jobs whose work is running now.
    var running: Int { state.withLock { $0.running } }

    /// Jobs in hand: running, or done and waiting for their acknowledgement.
    var inHand: Int { state.withLock { $0.running + $0.settling } }

    /// Running jobs whose work has not started.
    var waiting: Int { state.withLock { $0.waiting } }

    /// Free slots now (0 when stopped).
    var free: Int { state.withLock { [limit, ahead] in $0.free(limit: limit, ahead: ahead) } }

    /// Takes `count` slots for jobs about to be reserved or started; they count as not started.
    func take(_ count: Int = 1) {
        guard count > 0 else { return }
        change {
            $0.running += count
            $0.waiting += count
        }
    }

    /// Takes every free slot at once (for a reservation of that many jobs); how many it took.
    func claim() -> Int {
        var taken = 0
        change { [limit, ahead] state in
            taken = state.free(limit: limit, ahead: ahead)
            state.running += taken
            state.waiting += taken
        }
        return taken
    }

    /// Gives back `count` slots taken for a reservation that brought fewer jobs.
    func unclaim(_ count: Int) {
        guard count > 0 else { return }
        change {
            $0.running -= count
            $0.waiting -= count
        }
    }

    /// Before `takeAlone`: from now on nothing else is taken until the job that runs alone is out
    /// of hand. Returns the jobs handed in and not yet started, their slots given back, for the
    /// caller to hand back to the queue (they would hold their slots, and the jobs in hand would
    /// never run out).
    func awaitAlone() -> [JobDelivery] {
        var handed: [JobDelivery] = []
        change { state in
            state.awaitingAlone = true
            handed = state.inbox
            state.inbox = []
            state.running -= handed.count
            state.waiting -= handed.count
        }
        return handed
    }

    /// Hands jobs reserved for `claimed` slots (`claim`) to the main loop, giving back the slots
    /// they leave unused; wakes a `waitForFreeSlot`. False, giving back every slot and keeping
    /// nothing, once stopped or while a job runs or waits to run alone: the caller hands the jobs
    /// back to the queue.
    func hand(_ deliveries: [JobDelivery], claimed: Int) -> Bool {
        var kept = false
        change { state in
            let refused = state.stopped || state.alone || state.awaitingAlone
            let used = refused ? 0 : min(deliveries.count, claimed)
            state.running -= claimed - used
            state.waiting -= claimed - used
            if used > 0 { state.inbox += deliveries.prefix(used) }
            kept = !refused
        }
        return kept
    }

    /// The jobs handed in since the last call; each already holds its slot.
    func takeHanded() -> [JobDelivery] {
        state.withLock { state in
            defer { state.inbox = [] }
            return state.inbox
        }
    }

    /// A running job's work started (or it will not start: it is done); called once per job.
    /// `fromCache`: whether the work was a cache hit (nil: the job ends without its work starting,
    /// which leaves the streak of cache hits as it is).
    func startedWork(fromCache: Bool? = nil) {
        change { [limit] state in
            state.waiting -= 1
            if let fromCache { state.hitStreak = fromCache ? min(state.hitStreak + 1, limit) : 0 }
        }
    }

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
            state.awaitingAlone = false
            guard !state.stopped else { return }
            state.running += 1
            state.waiting += 1
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

    /// Returns once a slot is free or jobs were handed in (true), or the slots were stopped (false).
    func waitForFreeSlot() async -> Bool {
        let (limit, ahead) = (self.limit, self.ahead)
        await wait { $0.stopped || $0.free(limit: limit, ahead: ahead) > 0 || !$0.inbox.isEmpty }
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
