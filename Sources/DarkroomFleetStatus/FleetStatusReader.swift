import DarkroomQueue

/// Builds a `FleetStatus` from what the queue holds, and from the coordinator's projections when
/// the queue keeps them (`CoordinatorStore`) and a coordinator is registered.
public struct FleetStatusReader: Sendable {
    public typealias Queue = JobQueueDriver & WorkerRegistry & ProgressReportingQueue

    public let queue: any Queue
    public let store: (any CoordinatorStore)?

    public init(queue: any Queue, store: (any CoordinatorStore)?) {
        self.queue = queue
        self.store = store
    }

    /// The most recently active batches listed when none is asked for.
    public static let recentBatchLimit = 20
    /// The newest failures listed.
    public static let failureLimit = 10

    /// The status now. `batches`: the batches to report (each even without a coordinator); nil
    /// for the most recently active ones, which only a coordinator lists.
    public func read(batches names: [String]? = nil, now: Timestamp = .now()) async throws -> FleetStatus {
        let counts = try await queue.counts()
        let registration = try await store?.coordinatorRegistration()
        let projections = registration == nil ? nil : store

        var queues: [String: FleetStatus.PriorityQueue] = [:]
        for priority in JobPriority.allCases {
            let lag = counts.oldestReady[priority].map { max(Double(now.millisecondsSince1970 - $0.millisecondsSince1970) / 1000, 0) }
            queues[priority.rawValue] = .init(ready: counts.ready[priority] ?? 0, lagSeconds: lag)
        }

        let folded = try await projections?.workerProjections() ?? []
        let workers = try await queue.liveWorkers().map { info in
            let projection = folded.first { $0.name == info.name }
            return FleetStatus.Worker(
                name: info.name, host: info.host, pid: info.pid, concurrency: info.concurrency, jobsDone: info.jobsDone,
                modules: info.modules, version: info.version, startedAt: info.startedAt, seenAt: info.seenAt,
                errors: projection.map(\.errors) ?? (projections == nil ? nil : 0),
                currentJobs: projection.map(\.currentJobs) ?? (projections == nil ? nil : 0))
        }

        // A worker that died keeps its started jobs in the projections until they are reclaimed:
        // list it with them rather than letting it vanish with its heartbeat.
        let live = Set(workers.map(\.name))
        let deadWorkers =
            projections == nil
            ? nil
            : folded.filter { !live.contains($0.name) && $0.currentJobs > 0 }.map {
                FleetStatus.DeadWorker(name: $0.name, lastEventAt: $0.lastEventAt, abandonedJobs: $0.currentJobs)
            }

        var batches: [FleetStatus.Batch] = []
        var batchNames = names ?? []
        if names == nil, let projections { batchNames = try await projections.recentBatches(limit: Self.recentBatchLimit) }
        for name in batchNames {
            guard let progress = try await queue.batchProgress(name) else { continue }
            let projection = try await projections?.batchProjection(name)
            batches.append(
                FleetStatus.Batch(
                    name: name, total: progress.total, succeeded: progress.succeeded, failed: progress.failed, dead: progress.dead,
                    cancelled: progress.cancelled, running: projection?.running, queued: projection?.queued,
                    p50Ms: projection?.p50Milliseconds, p95Ms: projection?.p95Milliseconds))
        }

        var coordinator: FleetStatus.CoordinatorState?
        if let registration {
            let latest = try await queue.latestEventCursor()
            coordinator = FleetStatus.CoordinatorState(
                leaseHolder: registration.leaseHolder, checkpoint: registration.checkpoint?.rawValue, updatedAt: registration.updatedAt,
                lagSeconds: Self.lagSeconds(from: registration.checkpoint, to: latest))
        }

        let failures = try await projections?.recentFailures(limit: Self.failureLimit).map { event in
            FleetStatus.Failure(
                at: event.at, batch: event.batch, job: event.job?.rawValue, worker: event.worker, type: event.type.rawValue,
                code: event.error?.code ?? "", message: event.error?.message ?? "", willRetry: event.willRetry == true)
        }

        return FleetStatus(
            at: now, queues: queues, inFlight: counts.pending, delayed: counts.delayed, deadLetters: counts.deadLettered,
            workers: workers, deadWorkers: deadWorkers, batches: batches, jobsEndedLastMinute: try await projections?.jobsEnded(inLast: 60, before: now),
            failures: failures,
            coordinator: coordinator,
            needsCoordinator: projections == nil
                ? [
                    "batches (without --batch)", "batches[].running", "batches[].queued", "batches[].p50Ms", "batches[].p95Ms",
                    "workers[].errors", "workers[].currentJobs", "deadWorkers", "jobsEndedLastMinute", "failures",
                ] : [])
    }

    /// Seconds between two stream positions' times (Redis stream ids start with milliseconds);
    /// nil for cursors that carry no time (the in-memory queue's sequence numbers).
    static func lagSeconds(from checkpoint: EventCursor?, to latest: EventCursor) -> Double? {
        guard latest != .start, let newest = StreamPosition(latest), !newest.isDense else { return 0 }
        guard let checkpoint, let folded = StreamPosition(checkpoint), !folded.isDense else { return nil }
        return max(Double(Int64(clamping: newest.major) - Int64(clamping: folded.major)) / 1000, 0)
    }
}
