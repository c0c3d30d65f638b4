import DarkroomFleetStatus
import DarkroomQueue
import DarkroomRedis
import DarkroomSystem
import DarkroomTestSupport
import Testing

@testable import DarkroomCoordinator

/// The event stream is folded twice: into the projections, by Lua inside Redis
/// (`RedisCoordinatorStore.applyProjections`), and into the metrics, by Swift in the coordinator's
/// process (`MetricsFold`). docs/architecture.md says why. This holds the two to the same answers
/// on every count both keep, for one sequence with every kind of event, cut into pages of several
/// sizes (the Lua sums a page before writing it, so page boundaries must not matter).
@Suite("The projections' fold and the metrics' fold agree")
struct FoldAgreementTests {
    /// One sequence: three workers, two batches; successes from the cache and not, a failure that
    /// is retried and then succeeds, one that is final, jobs dead after retries and after a start,
    /// cancelled jobs, a job restarted by another worker after its first worker crashed (and went
    /// offline), one taken over from a worker still alive (whose late acknowledgement publishes
    /// nothing), one redelivered to the worker that had it, a worker gone offline holding a job,
    /// and jobs still running at the end.
    static func events(from base: Timestamp) -> [JobEvent] {
        var time = base
        func at() -> Timestamp {
            time = time.adding(.milliseconds(10))
            return time
        }
        func job(_ name: String) -> JobID { JobID(rawValue: name)! }
        let hit = JobResult(output: "/out/h.webp", format: "webp", width: 4, height: 3, bytes: 10, cache: .disk, ms: StageTimings())
        let miss = QueueTestKit.result()
        let fetch = JobError(code: "source.http-503", message: "503 for https://example.invalid/a.jpg")
        let corrupt = JobError(code: "image.corrupt", message: "bad bytes")
        let stalled = JobError(code: "queue.stalled", message: "delivered too often")
        return [
            .workerOnline(worker: "w1", at: at()), .workerOnline(worker: "w2", at: at()), .workerOnline(worker: "w3", at: at()),
            .batchEnqueued(batch: "b1", count: 6, at: at()), .batchEnqueued(batch: "b2", count: 4, at: at()),
            .started(job: job("j1"), batch: "b1", worker: "w1", attempt: 1, at: at()),
            .started(job: job("j2"), batch: "b1", worker: "w2", attempt: 1, at: at()),
            .started(job: job("k1"), batch: "b2", worker: "w1", attempt: 1, at: at()),
            .succeeded(job: job("j1"), batch: "b1", worker: "w1", attempt: 1, result: hit, at: at()),
            .succeeded(job: job("j2"), batch: "b1", worker: "w2", attempt: 1, result: miss, at: at()),
            .started(job: job("j3"), batch: "b1", worker: "w3", attempt: 1, at: at()),
            .failed(job: job("j3"), batch: "b1", worker: "w3", attempt: 1, error: fetch, willRetry: true, at: at()),
            .started(job: job("j4"), batch: "b1", worker: "w2", attempt: 1, at: at()),
            .cancelled(job: job("j6"), batch: "b1", attempt: 1, at: at()),
            .started(job: job("j3"), batch: "b1", worker: "w2", attempt: 2, at: at()),
            .failed(job: job("j4"), batch: "b1", worker: "w2", attempt: 1, error: corrupt, willRetry: false, at: at()),
            .succeeded(job: job("j3"), batch: "b1", worker: "w2", attempt: 2, result: hit, at: at()),
            // w1 crashes holding k1; w2 reclaims and runs it; the coordinator marks w1 offline.
            .started(job: job("k1"), batch: "b2", worker: "w2", attempt: 2, at: at()),
            .workerOffline(worker: "w1", at: at()),
            .started(job: job("j5"), batch: "b1", worker: "w3", attempt: 1, at: at()),
            .failed(job: job("j5"), batch: "b1", worker: "w3", attempt: 1, error: fetch, willRetry: true, at: at()),
            .succeeded(job: job("k1"), batch: "b2", worker: "w2", attempt: 2, result: miss, at: at()),
            .started(job: job("j5"), batch: "b1", worker: "w3", attempt: 2, at: at()),
            .dead(job: job("j5"), batch: "b1", worker: "w3", attempt: 2, error: stalled, at: at()),
            .cancelled(job: job("k3"), batch: "b2", attempt: 1, at: at()),
            .started(job: job("k2"), batch: "b2", worker: "w3", attempt: 1, at: at()),
            .started(job: job("k4"), batch: "b2", worker: "w2", attempt: 1, at: at()),
            .dead(job: job("k4"), batch: "b2", worker: "w2", attempt: 1, error: stalled, at: at()),
            // w3 is slow, not dead: w2 takes m1 over and ends it; w3's own end is never published.
            .started(job: job("m1"), batch: "b2", worker: "w3", attempt: 1, at: at()),
            .started(job: job("m1"), batch: "b2", worker: "w2", attempt: 2, at: at()),
            .succeeded(job: job("m1"), batch: "b2", worker: "w2", attempt: 2, result: hit, at: at()),
            // w2 reclaims its own m3: still one running job.
            .started(job: job("m3"), batch: "b2", worker: "w2", attempt: 1, at: at()),
            .started(job: job("m3"), batch: "b2", worker: "w2", attempt: 2, at: at()),
            .succeeded(job: job("m3"), batch: "b2", worker: "w2", attempt: 2, result: miss, at: at()),
            // w4 goes offline holding m2, which is still pending.
            .workerOnline(worker: "w4", at: at()),
            .started(job: job("m2"), batch: "b2", worker: "w4", attempt: 1, at: at()),
            .workerOffline(worker: "w4", at: at()),
        ]
    }

    @Test(
        "Given one event sequence in pages, the projections and the metrics agree on workers, outcomes, failures and starts",
        arguments: [1, 7, 1000])
    func agree(pageSize: Int) async throws {
        let server = try RedisTestServer()
        let client = RedisClient(url: try RedisURL(server.url))
        defer { client.close() }
        let store = RedisCoordinatorStore(queue: RedisStreamsQueue(client: client))
        let metrics = CoordinatorMetrics()
        // Within the last minute, so the projections' per-second throughput still holds them all.
        let now = Timestamp.now()
        let base = now.adding(.seconds(-30))
        let envelopes = Self.events(from: base).enumerated().map { index, event in
            EventEnvelope(cursor: EventCursor(rawValue: "\(base.millisecondsSince1970)-\(index + 1)"), event: event)
        }

        #expect(try await store.acquireCoordinatorLease(owner: "fold", ttl: .seconds(60)) == "fold")
        var checkpoint: EventCursor?
        for start in stride(from: 0, to: envelopes.count, by: pageSize) {
            let page = Array(envelopes[start..<min(start + pageSize, envelopes.count)])
            #expect(try await store.applyProjections(page, after: checkpoint, owner: "fold") == .applied)
            metrics.record(page, now: now)
            checkpoint = page.last?.cursor
        }
        let snapshot = metrics.snapshot()

        // Workers: errors (failed, retried or not, and dead), jobs running now, offline or not.
        let projected = Dictionary(uniqueKeysWithValues: try await store.workerProjections().map { ($0.name, $0) })
        #expect(Set(projected.keys) == Set(snapshot.workers.map(\.name)))
        for worker in snapshot.workers {
            let projection = try #require(projected[worker.name])
            #expect(projection.errors == worker.errors, "errors of \(worker.name)")
            #expect(projection.currentJobs == worker.running, "running jobs of \(worker.name)")
            #expect((projection.state == .offline) == (worker.state == "offline"), "state of \(worker.name)")
        }

        // Jobs ended: the projections count terminal events per second, the metrics per outcome.
        let ended = ["succeeded", "failed", "dead", "cancelled"].reduce(0) { $0 + (snapshot.jobs[$1] ?? 0) }
        #expect(try await store.jobsEnded(inLast: 60, before: now) == ended)

        // Failures, newest first: the metrics keep fewer, the projections' newest agree with them.
        let failures = try await store.recentFailures(limit: 50).map { "\($0.job?.rawValue ?? "")/\($0.error?.code ?? "")/\($0.willRetry == true)" }
        #expect(failures.prefix(snapshot.failures.count) == snapshot.failures.map { "\($0.job ?? "")/\($0.code)/\($0.willRetry)" }[...])

        // Starts per batch: the metrics count `started` per batch, the projections per job.
        for batch in snapshot.batches {
            let jobs = envelopes.compactMap { $0.event.batch == batch.name ? $0.event.job : nil }
            var starts = 0
            for job in Set(jobs) { starts += try await store.jobProjection(job)?.starts ?? 0 }
            #expect(starts == batch.started, "starts in \(batch.name)")
        }

        // And the sequence is not vacuous: every kind of outcome happened.
        #expect(snapshot.jobs == ["succeeded": 6, "failed": 1, "retried": 2, "dead": 2, "cancelled": 2])
        #expect(Dictionary(uniqueKeysWithValues: snapshot.workers.map { ($0.name, $0.running) }) == ["w1": 0, "w2": 0, "w3": 1, "w4": 1])
        #expect(snapshot.failures.count == 5)
    }
}
