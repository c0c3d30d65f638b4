import DarkroomQueue
import DarkroomSystem
import Logging

/// Group commit for the worker's queue traffic: acknowledgements of finished jobs, `started`
/// events and the reservation of the next jobs go to the queue together, one flush at a time, so
/// a worker makes about one queue call per round of finished jobs — one per job for a worker
/// that runs one job at a time — instead of three per job (reserve, `started`, acknowledge).
///
/// One flush is in flight at a time (`run`, the flush loop). When the loop is idle the first
/// acknowledgement is sent at once — no timer, no added latency; everything that arrives while a
/// flush is in flight goes together in the next one. A flush with acknowledgements is one
/// `acknowledge(_:publishing:reserving:)` call: the events queued so far first (so a job's
/// `started` always precedes its terminal event), then the acknowledgements, each caller getting
/// its own entry's answer, then — when the worker has free slots (`Reservations.claim`) — the
/// reservation of as many ready jobs, handed to the worker (`Reservations.received`).
///
/// `started` events do not start a flush of their own: they ride on the next one, or, when no
/// acknowledgement comes within `eventDelay` (a job that computes longer than that), go alone.
/// `eventsSent()` sends them at once.
///
/// A failing queue (Redis down) is retried `attempts` times with `backoff`, as single calls were;
/// then every caller of that flush gets nil and its job stays pending, to be reclaimed after the
/// visibility timeout (at least once). When the loop ends (cancellation at shutdown), whatever
/// is still queued is answered nil the same way, and later calls answer nil at once.
final class AcknowledgementBatcher: Sendable {
    /// How a flush takes the worker's next jobs: `claim` takes the free slots and says what to
    /// reserve for them (nil: nothing), `received` gets what was reserved for that claim (empty
    /// when the call failed), and must give back the slots left unused.
    struct Reservations: Sendable {
        var claim: @Sendable () -> NextReservation?
        var received: @Sendable (_ deliveries: [JobDelivery], _ claim: NextReservation) async -> Void
    }

    private struct Acknowledgement {
        var delivery: JobDelivery
        var outcome: JobOutcome
        var reply: CheckedContinuation<Bool?, Never>
    }

    private struct Work {
        var events: [JobEvent] = []
        var barriers: [CheckedContinuation<Void, Never>] = []
        var acknowledgements: [Acknowledgement] = []
    }

    private struct State {
        var work = Work()
        /// The queued events waited `eventDelay` for an acknowledgement to ride on.
        var eventsDue = false
        /// Counts the flushes, so a timer set for events that a flush has since sent does not
        /// mark later events due early (which would send them alone: a call per job).
        var flushes = 0
        /// A flush with acknowledgements is being sent.
        var sending = false
        /// Callers of `quiet()`.
        var quietWaiters: [CheckedContinuation<Void, Never>] = []
        /// The flush loop, waiting for work.
        var idleLoop: CheckedContinuation<Void, Never>?
        var closed = false

        var hasWork: Bool {
            !work.acknowledgements.isEmpty || !work.barriers.isEmpty || (eventsDue && !work.events.isEmpty)
        }

        var isQuiet: Bool { closed || (work.acknowledgements.isEmpty && !sending) }

        /// The waiting flush loop, if any, to be resumed outside the lock.
        mutating func takeIdleLoop() -> CheckedContinuation<Void, Never>? {
            defer { idleLoop = nil }
            return idleLoop
        }

        mutating func takeWork() -> Work {
            defer {
                work = Work()
                eventsDue = false
                flushes += 1
            }
            return work
        }
    }

    private let state = Locked(State())
    private let queue: any JobQueueDriver
    private let attempts: Int
    private let backoff: Backoff
    private let eventDelay: Duration
    private let logger: Logger

    init(queue: any JobQueueDriver, attempts: Int = 5, backoff: Backoff, eventDelay: Duration = .seconds(1), logger: Logger) {
        self.queue = queue
        self.attempts = max(1, attempts)
        self.backoff = backoff
        self.eventDelay = max(eventDelay, .zero)
        self.logger = logger
    }

    /// Acknowledges `delivery` with the next flush: true when this acknowledgement finished the
    /// job, false when the entry was no longer pending (another delivery finished it), nil when
    /// the queue could not be reached (the job stays pending). `queued` runs once the
    /// acknowledgement is queued (or refused), before this waits for the answer: the worker frees
    /// the job's slot there, so the slot is seen free only with the acknowledgement already in
    /// line to carry the next reservation.
    func acknowledge(_ delivery: JobDelivery, outcome: JobOutcome, queued: () -> Void = {}) async -> Bool? {
        await withCheckedContinuation { (reply: CheckedContinuation<Bool?, Never>) in
            let (accepted, loop) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
                guard !state.closed else { return (false, nil) }
                state.work.acknowledgements.append(Acknowledgement(delivery: delivery, outcome: outcome, reply: reply))
                return (true, state.takeIdleLoop())
            }
            queued()
            if !accepted { reply.resume(returning: nil) }
            loop?.resume()
        }
    }

    /// Queues progress events (`started`) for the next flush, without waiting; with no flush
    /// within `eventDelay`, they are sent alone. Best effort: a flush that cannot publish them
    /// logs it and carries on.
    func publish(_ events: [JobEvent]) {
        guard !events.isEmpty else { return }
        let first = state.withLock { state -> Int? in
            guard !state.closed else { return nil }
            defer { state.work.events += events }
            return state.work.events.isEmpty ? state.flushes : nil
        }
        guard let flush = first else { return }
        let delay = eventDelay
        Task { [weak self] in
            try? await Task.sleep(for: delay)
            self?.eventsWaitedLongEnough(since: flush)
        }
    }

    /// The events queued since flush number `flush` have waited `eventDelay`: unless a flush sent
    /// them meanwhile, they go with the next flush even alone.
    private func eventsWaitedLongEnough(since flush: Int) {
        let loop = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.flushes == flush, !state.work.events.isEmpty else { return nil }
            state.eventsDue = true
            return state.takeIdleLoop()
        }
        loop?.resume()
    }

    /// Returns once the events queued before this call have been sent (or given up on), so a
    /// queue call made next — `retry`, `release` — cannot publish a job's event before its `started`.
    func eventsSent() async {
        await withCheckedContinuation { (barrier: CheckedContinuation<Void, Never>) in
            let (now, loop) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
                if state.closed || state.work.events.isEmpty { return (true, nil) }
                state.work.barriers.append(barrier)
                return (false, state.takeIdleLoop())
            }
            if now { barrier.resume() }
            loop?.resume()
        }
    }

    /// Returns once no acknowledgement is queued or being sent: true at once when none is, false
    /// after waiting. A flush under way may reserve the worker's next jobs, so the worker waits
    /// for it rather than reserving the same slots itself.
    func quiet() async -> Bool {
        var waited = false
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.isQuiet { return true }
                state.quietWaiters.append(waiter)
                return false
            }
            waited = !now
            if now { waiter.resume() }
        }
        return !waited
    }

    /// The flush loop: runs until the task is cancelled, then answers what is left with nil.
    func run(reservations: Reservations) async {
        while let work = await nextFlush() {
            if work.acknowledgements.isEmpty {
                await send(events: work.events)
                for barrier in work.barriers { barrier.resume() }
            } else {
                await send(work, reservations: reservations)
            }
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.sending = false
                guard state.isQuiet else { return [] }
                defer { state.quietWaiters = [] }
                return state.quietWaiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    private func send(events: [JobEvent]) async {
        guard !events.isEmpty else { return }
        let queue = self.queue
        if await retrying("publish started events", { try await queue.publish(events) }) == nil {
            // Progress events only: the jobs run anyway.
            logger.debug("could not publish started events", metadata: ["events": "\(events.count)"])
        }
    }

    /// One call: the events, the acknowledgements and the reservation of the free slots.
    private func send(_ work: Work, reservations: Reservations) async {
        let queue = self.queue
        let outcomes = work.acknowledgements.map { (delivery: $0.delivery, outcome: $0.outcome) }
        let claim = reservations.claim()
        let events = work.events
        let answer = await retrying("acknowledge") {
            try await queue.acknowledge(outcomes, publishing: events, reserving: claim)
        }
        for barrier in work.barriers { barrier.resume() }
        if let claim { await reservations.received(answer?.reserved ?? [], claim) }
        for (index, acknowledgement) in work.acknowledgements.enumerated() {
            let result = answer.flatMap { index < $0.acknowledged.count ? $0.acknowledged[index] : nil }
            acknowledgement.reply.resume(returning: result)
        }
    }

    /// The work for the next flush, waiting for some when there is none; nil once cancelled (after
    /// answering everything still queued with nil).
    private func nextFlush() async -> Work? {
        while true {
            let taken = state.withLock { state -> Work? in
                guard state.hasWork else { return nil }
                state.sending = !state.work.acknowledgements.isEmpty
                return state.takeWork()
            }
            if let taken, !Task.isCancelled { return taken }
            if Task.isCancelled || state.withLock({ $0.closed }) {
                close()
                if let taken { abandon(taken) }
                return nil
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (loop: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if state.hasWork || state.closed { return true }
                        state.idleLoop = loop
                        return false
                    }
                    if ready { loop.resume() }
                }
            } onCancel: {
                close()
            }
        }
    }

    /// No more work is accepted; the idle loop and `quiet()` callers are woken so they can finish.
    private func close() {
        let (loop, leftover, waiters) = state.withLock {
            state -> (CheckedContinuation<Void, Never>?, Work, [CheckedContinuation<Void, Never>]) in
            state.closed = true
            defer { state.quietWaiters = [] }
            return (state.takeIdleLoop(), state.takeWork(), state.quietWaiters)
        }
        loop?.resume()
        abandon(leftover)
        for waiter in waiters { waiter.resume() }
    }

    private func abandon(_ work: Work) {
        for barrier in work.barriers { barrier.resume() }
        for acknowledgement in work.acknowledgements { acknowledgement.reply.resume(returning: nil) }
    }

    /// `call`, retried with the backoff; nil when it kept failing (or the task was cancelled).
    private func retrying<T: Sendable>(_ what: String, _ call: @Sendable () async throws -> T) async -> T? {
        for attempt in 1...attempts {
            do {
                return try await call()
            } catch {
                if attempt == attempts || Task.isCancelled {
                    logger.error(
                        "\(what) failed; the jobs stay pending and will be reclaimed after the visibility timeout",
                        metadata: ["error": "\(error)"])
                    return nil
                }
                try? await Task.sleep(for: backoff.delay(forAttempt: attempt))
            }
        }
        return nil
    }
}
