import DarkroomChains
import DarkroomCore
import DarkroomOutput
import DarkroomPipeline
import DarkroomQueue
import DarkroomSystem
import Logging

/// One job, from delivery to acknowledgement.
extension Worker {
    /// Plans a batch of deliveries (parsing each chain is cheap). Returns the work to start, in
    /// delivery order.
    func start(_ deliveries: [JobDelivery]) -> [(JobDelivery, Result<JobPlan, any Error>)] {
        deliveries.map { delivery in
            (
                delivery,
                Result<JobPlan, any Error> {
                    try JobPlan(job: delivery.job, processors: configuration.processors, coders: pipeline.configuration.coders, chains: chains)
                }
            )
        }
    }

    /// What to do when `delivery`'s work starts (`ImageRequest.onWorkStart`; for a job with
    /// renditions, when it is picked up): once, count it as started (`JobSlots.startedWork`) and
    /// queue its `started` event, timed now, for the batcher's next flush.
    func workStarted(_ delivery: JobDelivery, _ start: WorkStart) -> @Sendable (ImageRequest.WorkKind) -> Void {
        { [slots, batcher] kind in
            guard start.report() else { return }
            slots.startedWork(fromCache: kind == .cacheHit)
            let job = delivery.job
            batcher.publish([.started(job: job.id, batch: job.batch, worker: delivery.consumer, attempt: delivery.attempt)])
        }
    }

    /// Runs one planned job to its acknowledgement, then gives its slot back. Its queue lease is
    /// renewed while its work runs — from here, or, given `lease`, from the `LeaseKeeper` token
    /// taken when it was received (a redelivered job that waited to run alone). Once its work is
    /// over the job *settles* (`JobSlots.settle`): the lease is no longer renewed, and the next
    /// job may start while this one's acknowledgement is still on its way (unless this one runs
    /// alone).
    func perform(_ delivery: JobDelivery, plan planned: Result<JobPlan, any Error>, lease kept: Int? = nil) async {
        let lease = kept ?? leases.keep(delivery)
        let work = WorkStart()
        var settled = false
        defer {
            leases.drop(lease)
            if work.report() { slots.startedWork() }
            slots.give(settled: settled)
        }
        func settle() {
            if !settled {
                leases.drop(lease)
                // A job whose work never started (it failed first) no longer waits for it.
                if work.report() { slots.startedWork() }
                slots.settle()
                settled = true
            }
        }
        let job = delivery.job
        var logger = self.logger
        logger[metadataKey: "job"] = "\(job.id)"
        logger[metadataKey: "attempt"] = "\(delivery.attempt)"

        var plan: JobPlan
        do {
            plan = try planned.get()
        } catch let error as ChainError where error.code == .unknownProcessor {
            // Not this job's fault and not a failure: a worker with that plugin can run it.
            logger.warning(
                "job names a processor this worker lacks; handing it back for a worker that has it",
                metadata: ["error": "\(error)", "retry-in": "\(configuration.releaseDelay)"])
            settle()
            let queue = self.queue
            let delay = configuration.releaseDelay
            _ = await queueCall("release", logger: logger) { try await queue.release(delivery, after: delay) }
            return
        } catch {
            settle()
            await finish(delivery, failedWith: error, logger: logger)
            return
        }

        let started = workStarted(delivery, work)
        // The renditions path has no single request to report its start: it counts as started now.
        if plan.renditions != nil { started(.computation) } else { plan.request.onWorkStart = started }
        let result: JobResult
        do {
            result = try await execute(plan, output: job.output)
        } catch {
            if Task.isCancelled {
                logger.notice("job abandoned at shutdown; it stays pending and another worker will reclaim it")
                return
            }
            settle()
            await finish(delivery, failedWith: error, logger: logger)
            return
        }
        // The slot is freed once the acknowledgement is queued, so the flush carrying it can
        // reserve the next job for that slot in the same call.
        if let acknowledged = await batcher.acknowledge(delivery, outcome: .succeeded(result), queued: { settle() }) {
            countDone()
            if acknowledged {
                logger.debug("job succeeded", metadata: ["output": "\(result.output ?? "-")", "cache": "\(result.cache.rawValue)"])
            } else {
                logger.info("job already finished by another delivery; this result was not recorded")
            }
        }
    }

    /// Runs the pipeline and stores the output through the configured `OutputSink`. Every
    /// blocking step is awaited detachably, so an abandoned job (shutdown past the grace period)
    /// stops waiting at once.
    private func execute(_ plan: JobPlan, output: String?) async throws -> JobResult {
        if let renditions = plan.renditions { return try await executeRenditions(plan, renditions: renditions, output: output) }
        let sink = configuration.outputs
        if let output {
            // Checked before any work, so a refused output costs nothing.
            try await DetachedWait.run { try await sink.prepare(output) }
        }
        let pipeline = self.pipeline
        let request = plan.request
        let image = try await DetachedWait.run { try await pipeline.retrieve(request) }
        try Task.checkCancellation()

        var location = image.cachePath
        var checksum: String?
        var etag: String?
        var writeMilliseconds: Double?
        if let output {
            let clock = ContinuousClock()
            let start = clock.now
            let names = try plan.outputNames(for: image.format)
            let owner = plan.owner
            let bytes = image.bytes
            // Detachable too: a hung output volume (a stuck NFS mount) must not outlast the grace period.
            let stored = try await DetachedWait.run {
                try await Self.store(bytes, name: names.name, fallback: names.fallback, owner: owner, in: output, sink: sink)
            }
            location = stored.location
            checksum = stored.sha256
            etag = stored.etag
            writeMilliseconds = (clock.now - start).inMilliseconds
        }
        return JobResult(
            output: location, format: image.format.rawValue, width: image.size.width, height: image.size.height,
            bytes: image.bytes.count, cache: image.origin, sha256: checksum,
            ms: Self.stages(image.timings, origin: image.origin, outputWrite: writeMilliseconds), etag: etag,
            placeholders: image.placeholders)
    }

    /// Stores a result under `name`, recorded as `owner`'s. When the name holds a different
    /// output: another job's of the same batch fails this job (`output.taken`: one request asked
    /// for one name twice, and neither may silently win); this job's own (a redelivery that
    /// encoded differently) is replaced; another batch's, or one whose owner is unknown, is
    /// stepped around to `fallback` (the job id's name, which only this job writes) under the
    /// default template, and replaced under a template the user chose (`fallback` nil).
    static func store(
        _ bytes: [UInt8], name: String, fallback: String?, owner: OutputOwner, in output: String, sink: any OutputSink
    ) async throws(OutputError) -> StoredOutput {
        // A source without a usable name is named by the job id from the start.
        if name == fallback {
            return try await sink.store(bytes, named: name, in: output, owner: owner, onConflict: .replace)
        }
        do throws(OutputError) {
            return try await sink.store(bytes, named: name, in: output, owner: owner, onConflict: .refuse)
        } catch  where error.code == .taken {
            if let other = error.owner, other.batch == owner.batch, other.job != owner.job {
                throw OutputError(
                    .taken,
                    "\(error.message), written by job \(other.job) of this batch; give the jobs different names (--name '{stem}-{chain}.{ext}')",
                    owner: other)
            }
            return try await sink.store(bytes, named: fallback ?? name, in: output, owner: owner, onConflict: .replace)
        }
    }

    /// Permanent errors fail the job at once; transient ones schedule a retry after the backoff
    /// (the queue dead-letters the last allowed attempt).
    private func finish(_ delivery: JobDelivery, failedWith error: any Error, logger: Logger) async {
        // A job with renditions that failed part-way says which renditions it stored.
        let partial = error as? RenditionsFailure
        var found = UnresolvedHostRule.apply(ErrorClassifier.classify(partial?.underlying ?? error), job: delivery.job)
        if let partial { found.error.written = partial.written }
        let classified = found
        if await handBack(delivery, refusal: classified.error, logger: logger) { return }
        let queue = self.queue
        if classified.isTransient {
            // Its `started` may still wait in the batcher: it must reach the stream before `failed`.
            await batcher.eventsSent()
            let delay = UnresolvedHostRule.delay(
                configuration.retryBackoff.delay(forAttempt: delivery.attempt), for: classified,
                minimum: configuration.unresolvedRetryDelay)
            guard
                let disposition = await queueCall(
                    "retry", logger: logger,
                    {
                        try await queue.retry(delivery, after: delay, error: classified.error)
                    })
            else { return }
            countDone()
            switch disposition {
            case .scheduled:
                logger.info("job failed transiently; retrying", metadata: ["error": "\(classified.error)", "retry-in": "\(delay)"])
            case .deadLettered:
                logger.warning("job failed on its last attempt; dead-lettered", metadata: ["error": "\(classified.error)"])
            case .notPending:
                logger.info("job already finished by another delivery")
            }
        } else {
            guard await batcher.acknowledge(delivery, outcome: .failed(classified.error)) != nil else { return }
            countDone()
            logger.info("job failed", metadata: ["error": "\(classified.error)"])
        }
    }

    /// A queue call retried a few times with the queue backoff. Nil when it kept failing: the
    /// job then stays pending and is reclaimed after the visibility timeout (at least once).
    func queueCall<T: Sendable>(
        _ what: String, logger: Logger, attempts: Int = 5,
        _ call: @escaping @Sendable () async throws -> T
    ) async -> T? {
        for attempt in 1...max(1, attempts) {
            do {
                return try await call()
            } catch {
                if attempt == attempts || Task.isCancelled {
                    logger.error(
                        "\(what) failed; the job stays pending and will be reclaimed after the visibility timeout",
                        metadata: ["error": "\(error)"])
                    return nil
                }
                try? await Task.sleep(for: configuration.queueBackoff.delay(forAttempt: attempt))
            }
        }
        return nil
    }

    /// Milliseconds per stage: for a computed result every stage (store = cache write plus the
    /// output file); for a cache hit the lookup (`fetch`) and the output file (`store`). The same
    /// figures `darkroom process --json` reports, so its records and `run`'s agree.
    public static func stages(_ timings: StageTimings, origin: CacheOutcome, outputWrite: Double?) -> StageTimings {
        switch origin {
        case .miss:
            var stages = timings
            stages.add(outputWrite ?? 0, to: \.store)
            return stages
        case .memory, .disk:
            return StageTimings(fetch: timings.fetch, store: outputWrite)
        }
    }
}
