import DarkroomQueue

/// What the metrics remember between events: counts for `/status`, the live workers (a set, so a
/// worker that restarts without a `workerOffline` is not counted twice), the last batches and
/// failures. Everything is bounded: at most `maxWorkers` workers, `maxBatches` batches and
/// `maxFailures` failures are kept, the oldest dropped first, and at most `maxRunningJobs` running
/// jobs are remembered.
///
/// The projections fold the same events in Lua (docs/architecture.md says why there are two);
/// where both keep a count they agree (`FoldAgreementTests`).
struct MetricsFold: Sendable {
    static let maxWorkers = 1000
    static let maxBatches = 100
    static let maxFailures = 20
    /// Far above any fleet's concurrency: only lost events (a gap) leave starts without an end.
    static let maxRunningJobs = 100_000

    /// What one event changed, for the instruments.
    struct Change {
        /// `succeeded`, `failed`, `retried`, `dead` or `cancelled` for a job outcome; nil otherwise.
        var outcome: String?
    }

    var eventsProcessed = 0
    var checkpoint: EventCursor?
    var lastStreamTime: Timestamp?
    /// When the last event was folded, and when a read last found nothing (health checks).
    var advancedAt: ContinuousClock.Instant?
    var caughtUpAt: ContinuousClock.Instant?
    /// Whether the last read found nothing after the last event folded.
    var caughtUp = false
    var outcomes: [String: Int] = [:]
    var workers: [String: CoordinatorMetrics.WorkerStatus] = [:]
    var batches: [String: CoordinatorMetrics.BatchStatus] = [:]
    /// Batch names, least recently touched first.
    var batchOrder: [String] = []
    var failures: [CoordinatorMetrics.Failure] = []
    /// The worker each started, unended job runs on: a worker's `running` follows its jobs, so a
    /// job taken over by another worker leaves the first at once (as in the projections), even
    /// when the first is alive and its late acknowledgement publishes nothing.
    var runningOn: [JobID: String] = [:]
    var queue: CoordinatorMetrics.QueueGauges?

    var liveWorkerCount: Int { workers.values.count { $0.state != "offline" } }

    mutating func apply(_ envelope: EventEnvelope) -> Change {
        let event = envelope.event
        eventsProcessed += 1
        let outcome = Self.outcome(of: event)
        if let outcome { outcomes[outcome, default: 0] += 1 }
        updateWorker(event, outcome: outcome)
        updateBatch(event, outcome: outcome)
        if let error = event.error, event.type == .failed || event.type == .dead {
            failures.append(
                CoordinatorMetrics.Failure(
                    at: event.at, streamId: envelope.cursor.rawValue, job: event.job?.description, batch: event.batch,
                    worker: event.worker, code: error.code, message: error.message, willRetry: event.willRetry ?? false))
            if failures.count > Self.maxFailures { failures.removeFirst(failures.count - Self.maxFailures) }
        }
        return Change(outcome: outcome)
    }

    /// Moves the checkpoint to a page's last event: once per page, not per event (reading the
    /// clock and the stream id per event cost more than the rest of the fold).
    mutating func advance(to last: EventEnvelope) {
        checkpoint = last.cursor
        lastStreamTime = CoordinatorMetrics.streamTime(of: last)
        advancedAt = .now
    }

    static func outcome(of event: JobEvent) -> String? {
        switch event.type {
        case .succeeded: "succeeded"
        case .failed: event.willRetry == true ? "retried" : "failed"
        case .dead: "dead"
        case .cancelled: "cancelled"
        case .batchEnqueued, .started, .workerOnline, .workerOffline: nil
        }
    }

    private mutating func updateWorker(_ event: JobEvent, outcome: String?) {
        var counted = true
        if let job = event.job {
            if event.type == .started, let name = event.worker {
                let previous = runningOn.updateValue(name, forKey: job)
                if let previous, previous != name { release(previous) }
                // A redelivery to the same worker is still one running job.
                counted = previous != name
                if runningOn.count > Self.maxRunningJobs { forgetRunningJobs() }
            } else if outcome != nil, let holder = runningOn.removeValue(forKey: job) {
                release(holder)
            }
        }
        guard let name = event.worker else { return }
        var worker = workers[name] ?? CoordinatorMetrics.WorkerStatus(name: name)
        worker.lastSeen = event.at
        switch event.type {
        case .workerOnline:
            worker.state = "idle"
        case .workerOffline:
            // Its jobs stay counted until another worker takes them over or they end: they are
            // still pending in the queue, as in the projections.
            worker.state = "offline"
        case .started:
            if counted { worker.running += 1 }
        default:
            if outcome == "succeeded" { worker.jobsDone += 1 }
            if outcome == "failed" || outcome == "dead" || outcome == "retried" { worker.errors += 1 }
        }
        if worker.state != "offline" { worker.state = worker.running > 0 ? "busy" : "idle" }
        workers[name] = worker
        if workers.count > Self.maxWorkers,
            let oldest = workers.values.min(by: { $0.lastSeen < $1.lastSeen })
        {
            workers[oldest.name] = nil
        }
    }

    /// Forgets every running job (only lost events fill the map this far) and, with them, every
    /// worker's running count: a count whose jobs are forgotten could never go down again. Jobs
    /// still running when this happens are not counted until their next start.
    private mutating func forgetRunningJobs() {
        runningOn.removeAll()
        for name in workers.keys {
            workers[name]?.running = 0
            if workers[name]?.state == "busy" { workers[name]?.state = "idle" }
        }
    }

    /// A job the worker `name` was running ended, or moved to another worker.
    private mutating func release(_ name: String) {
        guard var worker = workers[name] else { return }
        worker.running = max(worker.running - 1, 0)
        if worker.state != "offline" { worker.state = worker.running > 0 ? "busy" : "idle" }
        workers[name] = worker
    }

    private mutating func updateBatch(_ event: JobEvent, outcome: String?) {
        guard let name = event.batch, event.type == .batchEnqueued || event.type.isJobEvent else { return }
        var batch = batches[name] ?? CoordinatorMetrics.BatchStatus(name: name)
        batch.updatedAt = event.at
        switch event.type {
        case .batchEnqueued: batch.total += event.count ?? 0
        case .started: batch.started += 1
        default: break
        }
        switch outcome {
        case "succeeded": batch.succeeded += 1
        case "failed": batch.failed += 1
        case "dead": batch.dead += 1
        case "cancelled": batch.cancelled += 1
        default: break
        }
        batches[name] = batch
        // Most events belong to the batch touched last, which is already at the end.
        if batchOrder.last != name {
            if let index = batchOrder.lastIndex(of: name) { batchOrder.remove(at: index) }
            batchOrder.append(name)
        }
        if batchOrder.count > Self.maxBatches { batches[batchOrder.removeFirst()] = nil }
    }
}
