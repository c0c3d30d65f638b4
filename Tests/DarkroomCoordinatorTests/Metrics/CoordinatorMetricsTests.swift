import DarkroomQueue
import DarkroomSystem
import Testing

@testable import DarkroomCoordinator

@Suite("Coordinator metrics")
struct CoordinatorMetricsTests {
    /// Events as the stream would hold them, with dense cursors (the in-memory queue's).
    static func envelopes(_ events: [JobEvent]) -> [EventEnvelope] {
        events.enumerated().map { EventEnvelope(cursor: EventCursor(rawValue: "\($0.offset + 1)"), event: $0.element) }
    }

    static func sampleEvents() -> [JobEvent] {
        let job = JobID(rawValue: "j1")!
        let timings = StageTimings(fetch: 12, decode: 3.5, process: 2, encode: 4, store: 0.5)
        let result = JobResult(output: "/out/a.png", format: "png", width: 4, height: 3, bytes: 10, cache: .miss, ms: timings)
        let notFound = JobError(code: "source.not-found", message: "404 for https://example.invalid/a.jpg")
        return [
            .workerOnline(worker: "w1"), .workerOnline(worker: "w2"), .workerOnline(worker: "w1"),
            .batchEnqueued(batch: "b", count: 3),
            .started(job: job, batch: "b", worker: "w1", attempt: 1),
            .succeeded(job: job, batch: "b", worker: "w1", attempt: 1, result: result),
            .started(job: JobID(rawValue: "j2")!, batch: "b", worker: "w2", attempt: 1),
            .failed(job: JobID(rawValue: "j2")!, batch: "b", worker: "w2", attempt: 1, error: notFound, willRetry: true),
            .failed(job: JobID(rawValue: "j2")!, batch: "b", worker: "w2", attempt: 2, error: notFound, willRetry: false),
            .dead(job: JobID(rawValue: "j3")!, batch: "b", worker: "w2", attempt: 3, error: JobError(code: "queue.stalled", message: "stalled")),
            .workerOffline(worker: "w2"),
        ]
    }

    @Test("Given a batch's events, then the counters, workers, batches and failures follow them")
    func fold() throws {
        let metrics = CoordinatorMetrics()
        metrics.record(Self.envelopes(Self.sampleEvents()))
        let snapshot = metrics.snapshot()
        #expect(snapshot.eventsProcessed == 11)
        #expect(snapshot.checkpoint == "11")
        #expect(snapshot.jobs == ["succeeded": 1, "retried": 1, "failed": 1, "dead": 1])
        #expect(snapshot.liveWorkers == 1)
        #expect(Set(snapshot.workers.map { "\($0.name)=\($0.state)" }) == ["w1=idle", "w2=offline"])
        #expect(snapshot.workers.first { $0.name == "w1" }?.jobsDone == 1)
        let batch = try #require(snapshot.batches.first)
        #expect(batch.name == "b" && batch.total == 3 && batch.succeeded == 1 && batch.failed == 1 && batch.dead == 1)
        #expect(snapshot.failures.map(\.code) == ["queue.stalled", "source.not-found", "source.not-found"])

        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(text.contains(#"darkroom_jobs_total{outcome="succeeded",code="none"} 1"#))
        #expect(text.contains(#"darkroom_jobs_total{outcome="failed",code="source.not-found"} 1"#))
        #expect(text.contains(#"darkroom_jobs_total{outcome="retried",code="source.not-found"} 1"#))
        #expect(text.contains("darkroom_dead_letters_total 1"))
        #expect(text.contains("darkroom_workers_live 1"))
        #expect(text.contains(#"darkroom_coordinator_events_total{type="workerOnline"} 3"#))
        #expect(text.contains(#"darkroom_job_stage_duration_seconds_count{stage="fetch"} 1"#))
        #expect(text.contains(#"darkroom_job_duration_seconds_sum{cache="miss"} 0.022"#))
    }

    @Test("Given queue counts, then depth per priority and the other queue gauges are set; lag from the oldest ready job, 0 when none is ready")
    func queueGauges() {
        let metrics = CoordinatorMetrics()
        let now = Timestamp.now()
        metrics.updateQueueGauges(
            QueueCounts(ready: [.high: 2, .low: 7], delayed: 1, pending: 3, deadLettered: 4, oldestReady: [.high: now.adding(.milliseconds(-1500))]),
            now: now)
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(text.contains(#"darkroom_queue_depth{priority="high"} 2"#))
        #expect(text.contains(#"darkroom_queue_depth{priority="normal"} 0"#))
        #expect(text.contains(#"darkroom_queue_depth{priority="low"} 7"#))
        #expect(text.contains(#"darkroom_queue_lag_seconds{priority="high"} 1.5"#))
        #expect(text.contains(#"darkroom_queue_lag_seconds{priority="normal"} 0"#))
        #expect(text.contains("darkroom_queue_delayed 1"))
        #expect(text.contains("darkroom_queue_pending 3"))
        #expect(text.contains("darkroom_queue_dead_letters 4"))
        #expect(metrics.snapshot().queue?.depth == ["high": 2, "normal": 0, "low": 7])
    }

    @Test("Given the last event appended 90 s ago, then the checkpoint lag is 90 s and grows at each scrape until a read finds nothing more")
    func checkpointLag() throws {
        let metrics = CoordinatorMetrics()
        let appended = Timestamp.now().adding(.seconds(-90))
        let redisID = EventCursor(rawValue: "\(appended.millisecondsSince1970)-0")
        metrics.record([EventEnvelope(cursor: redisID, event: .workerOnline(worker: "w", at: appended))], now: appended.adding(.seconds(90)))
        let lag = try #require(Self.lag(metrics))
        #expect(lag >= 90 && lag < 100)
        metrics.recordCaughtUp()
        #expect(Self.lag(metrics) == 0)
    }

    static func lag(_ metrics: CoordinatorMetrics) -> Double? {
        String(decoding: metrics.exposition(), as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix("darkroom_coordinator_checkpoint_lag_seconds ") }
            .flatMap { Double($0.split(separator: " ")[1]) }
    }

    @Test("Given more distinct error codes than the cap, then the extra codes are counted as other")
    func codeCardinalityIsBounded() {
        let metrics = CoordinatorMetrics()
        let events = (0..<600).map { index in
            JobEvent.failed(
                job: JobID(rawValue: "j\(index)")!, batch: "b", worker: "w", attempt: 1,
                error: JobError(code: "worker.code-\(index)", message: "x"), willRetry: false)
        }
        metrics.record(Self.envelopes(events))
        let lines = String(decoding: metrics.exposition(), as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("darkroom_jobs_total{") }
        #expect(lines.count == CoordinatorMetrics.Instruments.maxJobSeries + 1)
        #expect(lines.contains(#"darkroom_jobs_total{outcome="failed",code="other"} 100"#))
    }
}
