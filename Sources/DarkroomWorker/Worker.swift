import DarkroomPipeline
import DarkroomQueue
import DarkroomSystem
import Logging
import ServiceLifecycle
import Synchronization

/// A queue worker: pulls jobs from any `JobQueueDriver`, runs them through an `ImagePipeline`,
/// stores outputs (through the configuration's `OutputSink`), publishes events and acknowledges — a swift-service-lifecycle `Service`.
///
/// - **Back-pressure**: it reserves only as many jobs as it has free slots (`concurrency`), and
///   runs each in its own child task. A slot is free again once its job is acknowledged. Of the
///   jobs it holds, at most `reserveAhead` (twice the CPU threads by default) have not started
///   their work (`JobSlots`): it takes what its CPU pool will reach soon, not a pile that waits
///   (and that a killed worker would strand until the visibility timeout).
/// - **Group commit**: acknowledgements, `started` events and the next reservation go through
///   `AcknowledgementBatcher`: the first finished job is acknowledged at once, those finishing
///   meanwhile together in the next round trip (each still acknowledged atomically with its own
///   terminal event), and the same call reserves the jobs for the slots they free. The main loop
///   reserves by itself only when no acknowledgement is on its way (an idle worker, a first
///   reservation), so a busy worker makes about one queue call per round of finished jobs.
/// - **`started`** is published when a job's work starts — its CPU work begins, or its result is
///   found in a cache (`ImageRequest.onWorkStart`), the event's `at` that moment — riding on the
///   next call the worker makes, or alone after `startedEventDelay` when none comes.
/// - **Leases**: while a job runs its queue lease is renewed every `leaseRenewInterval` (by one
///   `LeaseKeeper` loop; a job that finishes sooner costs no renewal), so a long job is not reclaimed; every `reclaimInterval` it reclaims stale jobs of dead workers (any
///   live worker does, none is special) and runs them, alone (below).
/// - **Redelivered jobs run alone**: a delivery whose `deliveryCount` is above 1 (`runsAlone`)
///   comes back because the worker that held it vanished — maybe killed by this very job: a
///   plugin that aborts or segfaults takes the process down, and every job in hand with it. So it
///   starts only once no other job is in hand (those running finish first; none is taken
///   meanwhile), and no other job is taken until it is acknowledged (`JobSlots.takeAlone`). A
///   poison job then takes no neighbour down again: it is dead-lettered with `queue.stalled` after
///   `maxAttempts` deliveries, and the neighbours it took down the first time succeed. The cost:
///   no parallelism on this worker while a redelivered job runs.
///
///   The worker reclaims *one* stale job at a time (looking again as soon as it is done), not
///   one per free slot: jobs reclaimed together would wait their turn here, and those still
///   waiting when one of them crashes the worker would be delivered again without having run — a
///   poison job first in such a batch would use up its neighbours' deliveries with its own.
///   Releasing the waiting ones is no way out: a release requeues a job as a first delivery,
///   forgetting the deliveries that count toward `queue.stalled`. `reserve` hands out first
///   deliveries only; should a driver hand out several redelivered jobs at once, the first
///   deliveries among them start at once, then each redelivered one runs alone, in order, its
///   lease renewed by the `LeaseKeeper` while it waits.
/// - **Failures**: `ErrorClassifier` decides: permanent → `failed` at once; transient → retried
///   after `retryBackoff` (the queue dead-letters after `maxAttempts`). A job naming a processor
///   this worker lacks is released for another worker. Queue operations that fail (Redis down)
///   are retried with `queueBackoff`; nothing stops the worker but a shutdown.
/// - **Graceful shutdown** (ServiceLifecycle's, or `shutdownGracefully()`): stop reserving, let
///   jobs in hand finish within `gracePeriod`, leave the rest unacknowledged (other workers
///   reclaim them after the visibility timeout), publish `workerOffline`, deregister, return.
///   Task cancellation is a hard stop: jobs in hand are abandoned the same way, at once.
public final class Worker: Service {
    public let queue: any JobQueueDriver & WorkerRegistry
    public let pipeline: ImagePipeline
    public let configuration: WorkerConfiguration
    /// The time heartbeats, lease renewals, reclaims and the grace period are timed by.
    public let clock: any QueueClock
    let logger: Logger
    let startedAt = Timestamp.now()
    let stopping = StopSignal()
    let slots: JobSlots
    /// Group commit of acknowledgements and `started` events.
    let batcher: AcknowledgementBatcher
    /// Renews the leases of jobs that run longer than a moment.
    let leases: LeaseKeeper
    /// Parsed chains by text, shared by the jobs of a batch.
    let chains = ChainCache()
    /// The capabilities it reserves and reclaims with (`WorkerConfiguration.offers`), worked out once.
    let offers: Set<String>
    private let done = Atomic<Int>(0)
    private let waiting = Atomic<Int>(0)
    private let announced = Atomic<Bool>(false)

    /// - Parameter clock: the time the worker's own timers follow (heartbeats, lease renewals,
    ///   reclaims, the grace period); the system clock by default. Tests pass the `ManualQueueClock`
    ///   their `MemoryQueue` reads, so visibility timeouts and these timers move together by hand.
    public init(
        queue: any JobQueueDriver & WorkerRegistry, pipeline: ImagePipeline, configuration: WorkerConfiguration,
        logger: Logger, clock: any QueueClock = SystemQueueClock()
    ) {
        self.queue = queue
        self.pipeline = pipeline
        self.configuration = configuration
        self.clock = clock
        offers = configuration.offers
        leases = LeaseKeeper(clock: clock)
        var logger = logger
        logger[metadataKey: "worker"] = "\(configuration.name)"
        self.logger = logger
        slots = JobSlots(
            limit: configuration.concurrency,
            ahead: configuration.reserveAhead ?? 2 * pipeline.configuration.maxConcurrentProcessing)
        batcher = AcknowledgementBatcher(
            queue: queue, backoff: configuration.queueBackoff, eventDelay: configuration.startedEventDelay, logger: self.logger)
    }

    /// Jobs finished since start (succeeded, failed, retried or dead-lettered).
    public var jobsDone: Int { done.load(ordering: .relaxed) }

    /// Jobs running now.
    public var jobsRunning: Int { slots.running }

    /// Redelivered jobs in hand that wait for the other jobs in hand to finish, to run alone.
    public var jobsWaiting: Int { waiting.load(ordering: .relaxed) }

    /// Begins a graceful shutdown, as a ServiceLifecycle graceful shutdown does: for embedding
    /// the worker without a `ServiceGroup`.
    public func shutdownGracefully() {
        stopping.fire()
        slots.stop()
    }

    var leaseRenewInterval: Duration {
        configuration.leaseRenewInterval ?? queue.configuration.visibilityTimeout / 3
    }

    var reclaimInterval: Duration {
        configuration.reclaimInterval ?? queue.configuration.visibilityTimeout / 2
    }

    public func run() async throws {
        logger.info(
            "worker starting",
            metadata: [
                "concurrency": "\(configuration.concurrency)",
                "visibility-timeout": "\(queue.configuration.visibilityTimeout)",
                "max-attempts": "\(queue.configuration.maxAttempts)",
            ])
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await serve()
            } onCancel: { [slots, stopping] in
                // A hard stop: nothing more is started and jobs in hand are abandoned at once.
                stopping.fire()
                slots.abandon()
            }
        } onGracefulShutdown: { [weak self] in
            self?.shutdownGracefully()
        }
        await goOffline()
        logger.info("worker stopped", metadata: ["jobs-done": "\(jobsDone)"])
    }

    /// The main loop: reclaim or reserve into free slots, run each job in a child task; after a
    /// stop, drain within the grace period.
    private func serve() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.heartbeats() }
            group.addTask { await self.batcher.run(reservations: self.reservations) }
            group.addTask { await self.leases.run(queue: self.queue, interval: self.leaseRenewInterval, logger: self.logger) }
            var nextReclaim = clock.now()
            var queueFailures = 0
            while await slots.waitForFreeSlot(), !stopping.isFired {
                // Jobs acknowledged in one group commit give their slots back one after another:
                // letting them run first turns many one-job reservations into one bigger one.
                await Task.yield()
                let handed = slots.takeHanded()
                if !handed.isEmpty {
                    await launch(handed, claimed: handed.count, in: &group)
                    continue
                }
                guard slots.free > 0 else { continue }
                do {
                    var deliveries: [JobDelivery] = []
                    let now = clock.now()
                    // Also when the time went back (a wall clock set back) further than an interval.
                    if now >= nextReclaim || nextReclaim.duration(since: now) > reclaimInterval {
                        nextReclaim = now.adding(reclaimInterval)
                        // One at a time, each run alone (see the type's comment).
                        let reclaimed = try await queue.reclaimStale(consumer: configuration.name, max: 1, offering: offers)
                        deliveries = reclaimed.deliveries
                        // More may be stale: look again as soon as this one is done.
                        if !deliveries.isEmpty { nextReclaim = now }
                        if !deliveries.isEmpty || reclaimed.deadLettered > 0 {
                            logger.notice(
                                "reclaimed stale jobs of stopped workers",
                                metadata: [
                                    "reclaimed": "\(deliveries.count)", "dead-lettered": "\(reclaimed.deadLettered)",
                                ])
                        }
                    }
                    var claimed = 0
                    if deliveries.isEmpty {
                        // An acknowledgement on its way reserves for the free slots in the same call.
                        if !(await batcher.quiet()) { continue }
                        claimed = slots.claim()
                        guard claimed > 0 else { continue }
                        do {
                            deliveries = try await reserve(max: claimed)
                        } catch {
                            slots.unclaim(claimed)
                            throw error
                        }
                    }
                    if queueFailures > 0 {
                        logger.notice("the queue answers again", metadata: ["failed-calls": "\(queueFailures)"])
                        queueFailures = 0
                    }
                    await launch(deliveries, claimed: claimed, in: &group)
                } catch {
                    queueFailures += 1
                    let delay = configuration.queueBackoff.delay(forAttempt: queueFailures)
                    // The first failure and then every 10th, so a long outage is visible but not a flood.
                    if queueFailures == 1 || queueFailures % 10 == 0 {
                        logger.error(
                            "cannot reach the queue; retrying with backoff",
                            metadata: [
                                "error": "\(error)", "failed-calls": "\(queueFailures)", "retry-in": "\(delay)",
                            ])
                    }
                    await stopping.sleep(for: delay)
                }
            }
            await handBackHanded()
            await drain()
            group.cancelAll()
        }
    }

    /// Starts `deliveries`, which hold `claimed` slots taken before they were reserved: first
    /// deliveries at once (giving back the slots they leave unused, or taking the ones missing),
    /// then the redelivered ones, each alone.
    private func launch(_ deliveries: [JobDelivery], claimed: Int, in group: inout DiscardingTaskGroup) async {
        let together = deliveries.filter { !$0.runsAlone }
        if claimed > together.count { slots.unclaim(claimed - together.count) } else { slots.take(together.count - claimed) }
        for (delivery, plan) in start(together) {
            group.addTask { await self.perform(delivery, plan: plan) }
        }
        await startAlone(deliveries.filter(\.runsAlone), in: &group)
    }

    /// How the batcher's acknowledgement flushes reserve the next jobs: for the slots free when
    /// the flush is sent, handed to the main loop.
    private var reservations: AcknowledgementBatcher.Reservations {
        AcknowledgementBatcher.Reservations(
            claim: { [slots, name = configuration.name, offers] in
                let claimed = slots.claim()
                return claimed > 0 ? NextReservation(consumer: name, max: claimed, offering: offers) : nil
            },
            received: { [weak self] deliveries, claim in
                guard let self, !slots.hand(deliveries, claimed: claim.max) else { return }
                await handBack(deliveries)
            })
    }

    /// Jobs reserved by a flush that the stopped main loop will not start: their slots are given
    /// back, and they go back to the queue untouched for another worker.
    private func handBackHanded() async {
        let handed = slots.takeHanded()
        slots.unclaim(handed.count)
        await handBack(handed)
    }

    /// Hands jobs never started back to the queue (`release`, no attempt used); one that cannot
    /// be is reclaimed after the visibility timeout.
    private func handBack(_ deliveries: [JobDelivery]) async {
        let queue = self.queue
        for delivery in deliveries {
            _ = await queueCall("hand back an unstarted job", logger: logger) { try await queue.release(delivery, after: .zero) }
        }
    }

    /// Starts each of `deliveries` (redelivered jobs) alone, one after another: each once no other
    /// job is in hand, so this returns when the last has started. Their leases are renewed while
    /// they wait. When a stop comes first, those not started are left pending, unacknowledged,
    /// as at a hard stop: another worker reclaims them.
    private func startAlone(_ deliveries: [JobDelivery], in group: inout DiscardingTaskGroup) async {
        guard !deliveries.isEmpty else { return }
        let held = deliveries.map { leases.keep($0) }
        waiting.add(deliveries.count, ordering: .relaxed)
        for (index, delivery) in deliveries.enumerated() {
            let handed = slots.awaitAlone()
            if !handed.isEmpty { await handBack(handed) }
            guard await slots.takeAlone() else {
                for lease in held[index...] { leases.drop(lease) }
                waiting.subtract(deliveries.count - index, ordering: .relaxed)
                logger.notice(
                    "stopping before redelivered jobs could run alone; they stay pending for another worker",
                    metadata: ["left": "\(deliveries.count - index)"])
                return
            }
            waiting.subtract(1, ordering: .relaxed)
            for (delivery, plan) in start([delivery]) {
                group.addTask { await self.perform(delivery, plan: plan, lease: held[index]) }
            }
        }
    }

    /// `reserve`, cancelled (returning what it got, if anything) as soon as a stop begins.
    private func reserve(max: Int) async throws -> [JobDelivery] {
        let queue = self.queue
        let name = configuration.name
        let wait = configuration.reserveWait
        let offers = self.offers
        let call = Task { try await queue.reserve(consumer: name, max: max, wait: wait, offering: offers) }
        return try await withTaskCancellationHandler {
            try await stopping.whileRegistered({ call.cancel() }) { try await call.value }
        } onCancel: {
            call.cancel()
        }
    }

    /// Waits up to the grace period for the jobs in hand; abandons the rest.
    private func drain() async {
        let running = slots.inHand
        guard running > 0 else { return }
        logger.notice(
            "finishing jobs in hand before stopping",
            metadata: [
                "running": "\(running)", "grace-period": "\(configuration.gracePeriod)",
            ])
        let timer = Task { [slots, clock, grace = configuration.gracePeriod] in
            if (try? await clock.sleep(for: grace)) != nil { slots.abandon() }
        }
        let idle = await slots.waitUntilIdle()
        timer.cancel()
        if !idle {
            logger.warning(
                "grace period over; jobs still running are left unacknowledged for other workers to reclaim",
                metadata: ["abandoned": "\(slots.inHand)"])
        }
    }

    // MARK: Fleet registration

    /// Beats until `serve` cancels it after draining — not when a stop begins: a draining worker
    /// still runs jobs and still offers its processors, so it stays in the live set meanwhile.
    private func heartbeats() async {
        while !Task.isCancelled {
            do {
                if !announced.load(ordering: .relaxed) {
                    try await queue.publish([.workerOnline(worker: configuration.name)])
                    announced.store(true, ordering: .relaxed)
                }
                try await queue.heartbeat(info, ttl: configuration.heartbeatTTL)
            } catch {
                // The main loop reports an unreachable queue; this only notes the heartbeat.
                logger.debug("heartbeat failed", metadata: ["error": "\(error)"])
            }
            try? await clock.sleep(for: configuration.heartbeatInterval)
        }
    }

    /// What heartbeats advertise.
    var info: WorkerInfo {
        WorkerInfo(
            name: configuration.name, host: WorkerConfiguration.hostName, pid: Self.pid,
            concurrency: configuration.concurrency, jobsDone: jobsDone,
            processors: configuration.processorVersions, schemas: configuration.processorSchemas, modules: configuration.modules,
            formats: configuration.formats, capabilities: configuration.features.sorted(),
            fileRoots: configuration.fileRoots, outputRoots: configuration.outputRoots,
            version: configuration.version,
            startedAt: startedAt)
    }

    /// `workerOffline` and deregistration, best effort and bounded: a queue that is down must not
    /// keep a stopping worker alive.
    private func goOffline() async {
        let queue = self.queue
        let name = configuration.name
        let wasAnnounced = announced.load(ordering: .relaxed)
        // An unstructured task: after a hard stop (cancellation) the worker still says goodbye.
        let farewell = Task {
            try await DetachedWait.run(deadline: .seconds(5)) {
                if wasAnnounced { try await queue.publish([.workerOffline(worker: name)]) }
                try await queue.removeWorker(named: name)
            }
        }
        do {
            try await farewell.value
        } catch {
            logger.warning(
                "could not deregister from the queue; the worker entry expires with its heartbeat",
                metadata: ["error": "\(error)"])
        }
    }

    func countDone() { done.add(1, ordering: .relaxed) }

    static var pid: Int32 { WorkerProcess.id }
}

extension JobDelivery {
    /// A redelivery: the worker that held this entry before vanished, maybe killed by this job.
    /// It runs alone (see `Worker`).
    var runsAlone: Bool { deliveryCount > 1 }
}
