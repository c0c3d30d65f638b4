import DarkroomQueue
import DarkroomSystem
import Logging

/// Group commit for the worker's queue traffic: acknowledgements of finished jobs and `started`
/// events go to the queue together, one flush at a time, so a worker finishing thousands of
/// cache hits a second makes a few queue round trips per batch instead of two per job.
///
/// One flush is in flight at a time (`run`, the flush loop). When the loop is idle the first
/// acknowledgement is sent at once — no timer, no added latency; everything that arrives while a
/// flush is in flight goes together in the next one. A flush sends, in order: the events queued
/// so far (so a job's `started` always precedes its terminal event), then wakes the barriers
/// (`eventsSent`), then the acknowledgements in one `acknowledge([…])` group commit, each caller
/// getting its own entry's answer.
///
/// A failing queue (Redis down) is retried `attempts` times with `backoff`, as single calls were;
/// then every caller of that flush gets nil and its job stays pending, to be reclaimed after the
/// visibility timeout (at least once). When the loop ends (cancellation at shutdown), whatever
/// is still queued is answered nil the same way, and later calls answer nil at once.
final class AcknowledgementBatcher: Sendable {
    private struct Acknowledgement {
        var delivery: JobDelivery
        var outcome: JobOutcome
        var reply: CheckedContinuation<Bool?, Never>
    }

    private struct State {
        var acknowledgements: [Acknowledgement] = []
        var events: [JobEvent] = []
        var barriers: [CheckedContinuation<Void, Never>] = []
        /// The flush loop, waiting for work.
        var idleLoop: CheckedContinuation<Void, Never>?
        var closed = false

        var hasWork: Bool { !acknowledgements.isEmpty || !events.isEmpty || !barriers.isEmpty }

        /// The waiting flush loop, if any, to be resumed outside the lock.
        mutating func takeIdleLoop() -> CheckedContinuation<Void, Never>? {
            defer { idleLoop = nil }
            return idleLoop
        }
    }

    private let state = Locked(State())
    private let queue: any JobQueueDriver
    private let attempts: Int
    private let backoff: Backoff
    private let logger: Logger

    init(queue: any JobQueueDriver, attempts: Int = 5, backoff: Backoff, logger: Logger) {
        self.queue = queue
        self.attempts = max(1, attempts)
        self.backoff = backoff
        self.logger = logger
    }

    /// Acknowledges `delivery` with the next flush: true when this acknowledgement finished the
    /// job, false when the entry was no longer pending (another delivery finished it), nil when
    /// the queue could not be reached (the job stays pending).
    func acknowledge(_ delivery: JobDelivery, outcome: JobOutcome) async -> Bool? {
        await withCheckedContinuation { (reply: CheckedContinuation<Bool?, Never>) in
            let (accepted, loop) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
                guard !state.closed else { return (false, nil) }
                state.acknowledgements.append(Acknowledgement(delivery: delivery, outcome: outcome, reply: reply))
                return (true, state.takeIdleLoop())
            }
            if !accepted { reply.resume(returning: nil) }
            loop?.resume()
        }
    }

    /// Queues progress events (`started`) for the next flush, without waiting. Best effort: a
    /// flush that cannot publish them logs it and carries on.
    func publish(_ events: [JobEvent]) {
        guard !events.isEmpty else { return }
        let loop = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.closed else { return nil }
            state.events += events
            return state.takeIdleLoop()
        }
        loop?.resume()
    }

    /// Returns once the events queued before this call have been sent (or given up on), so a
    /// queue call made next — `retry`, `release` — cannot publish a job's event before its `started`.
    func eventsSent() async {
        await withCheckedContinuation { (barrier: CheckedContinuation<Void, Never>) in
            let (now, loop) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
                if state.closed || state.events.isEmpty { return (true, nil) }
                state.barriers.append(barrier)
                return (false, state.takeIdleLoop())
            }
            if now { barrier.resume() }
            loop?.resume()
        }
    }

    /// The flush loop: runs until the task is cancelled, then answers what is left with nil.
    func run() async {
        while let (events, barriers, acknowledgements) = await nextFlush() {
            if !events.isEmpty {
                let queue = self.queue
                if await retrying("publish started events", { try await queue.publish(events) }) == nil {
                    // Progress events only: the jobs run anyway.
                    logger.debug("could not publish started events", metadata: ["events": "\(events.count)"])
                }
            }
            for barrier in barriers { barrier.resume() }
            if !acknowledgements.isEmpty { await send(acknowledgements) }
        }
    }

    private func send(_ acknowledgements: [Acknowledgement]) async {
        let queue = self.queue
        let outcomes = acknowledgements.map { (delivery: $0.delivery, outcome: $0.outcome) }
        let results = await retrying("acknowledge") { try await queue.acknowledge(outcomes) }
        for (index, acknowledgement) in acknowledgements.enumerated() {
            let result = results.flatMap { index < $0.count ? $0[index] : nil }
            acknowledgement.reply.resume(returning: result)
        }
    }

    /// The work for the next flush, waiting for some when there is none; nil once cancelled (after
    /// answering everything still queued with nil).
    private func nextFlush() async -> ([JobEvent], [CheckedContinuation<Void, Never>], [Acknowledgement])? {
        while true {
            let taken = state.withLock { state -> ([JobEvent], [CheckedContinuation<Void, Never>], [Acknowledgement])? in
                guard state.hasWork else { return nil }
                defer {
                    state.events = []
                    state.barriers = []
                    state.acknowledgements = []
                }
                return (state.events, state.barriers, state.acknowledgements)
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

    /// No more work is accepted; the idle loop is woken so it can finish.
    private func close() {
        let (loop, leftover) = state.withLock {
            state -> (CheckedContinuation<Void, Never>?, ([JobEvent], [CheckedContinuation<Void, Never>], [Acknowledgement])) in
            state.closed = true
            defer {
                state.events = []
                state.barriers = []
                state.acknowledgements = []
            }
            return (state.takeIdleLoop(), (state.events, state.barriers, state.acknowledgements))
        }
        loop?.resume()
        abandon(leftover)
    }

    private func abandon(_ work: ([JobEvent], [CheckedContinuation<Void, Never>], [Acknowledgement])) {
        for barrier in work.1 { barrier.resume() }
        for acknowledgement in work.2 { acknowledgement.reply.resume(returning: nil) }
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
