import CoreMetrics
import DarkroomQueue
import DarkroomSystem
import Prometheus

// Prometheus declares its own Counter and Gauge; these are swift-metrics' API types.
typealias MetricsCounter = CoreMetrics.Counter
typealias MetricsGauge = CoreMetrics.Gauge
typealias MetricsTimer = CoreMetrics.Timer

extension CoordinatorMetrics {
    /// The swift-metrics instruments, made once through the Prometheus factory. Counters whose labels
    /// come from events (outcome and error code) are made on first use and kept by label.
    final class Instruments: Sendable {
        let events: [JobEventType: MetricsCounter]
        let stageTimers: (fetch: MetricsTimer, decode: MetricsTimer, process: MetricsTimer, encode: MetricsTimer, store: MetricsTimer)
        let jobDuration: [CacheOutcome: MetricsTimer]
        let deadLetterEvents: MetricsCounter
        let liveWorkers: MetricsGauge
        let checkpointLag: MetricsGauge
        let depth: [JobPriority: MetricsGauge]
        let lag: [JobPriority: MetricsGauge]
        let delayed: MetricsGauge
        let pending: MetricsGauge
        let deadLetters: MetricsGauge
        let gaps: MetricsCounter
        let eventsLost: MetricsCounter
        /// `darkroom_jobs_total` by "outcome code".
        let jobs = Locked<[String: MetricsCounter]>([:])

        /// The most `darkroom_jobs_total` series (outcome × code) before codes fold into `other`.
        static let maxJobSeries = 500

        init(factory: PrometheusMetricsFactory) {
            events = Self.each(JobEventType.allCases) {
                MetricsCounter(label: "darkroom_coordinator_events_total", dimensions: [("type", $0.rawValue)], factory: factory)
            }
            func stage(_ name: String) -> MetricsTimer {
                MetricsTimer(label: "darkroom_job_stage_duration_seconds", dimensions: [("stage", name)], factory: factory)
            }
            stageTimers = (stage("fetch"), stage("decode"), stage("process"), stage("encode"), stage("store"))
            jobDuration = Self.each(CacheOutcome.allCases) {
                MetricsTimer(label: "darkroom_job_duration_seconds", dimensions: [("cache", $0.rawValue)], factory: factory)
            }
            deadLetterEvents = MetricsCounter(label: "darkroom_dead_letters_total", factory: factory)
            liveWorkers = MetricsGauge(label: "darkroom_workers_live", factory: factory)
            checkpointLag = MetricsGauge(label: "darkroom_coordinator_checkpoint_lag_seconds", factory: factory)
            depth = Self.each(JobPriority.allCases) { MetricsGauge(label: "darkroom_queue_depth", dimensions: [("priority", $0.rawValue)], factory: factory) }
            lag = Self.each(JobPriority.allCases) {
                MetricsGauge(label: "darkroom_queue_lag_seconds", dimensions: [("priority", $0.rawValue)], factory: factory)
            }
            delayed = MetricsGauge(label: "darkroom_queue_delayed", factory: factory)
            pending = MetricsGauge(label: "darkroom_queue_pending", factory: factory)
            deadLetters = MetricsGauge(label: "darkroom_queue_dead_letters", factory: factory)
            gaps = MetricsCounter(label: "darkroom_coordinator_gaps_total", factory: factory)
            eventsLost = MetricsCounter(label: "darkroom_coordinator_events_lost_total", factory: factory)
        }

        /// One instrument per key.
        static func each<Key: Hashable, Metric>(_ keys: [Key], _ make: (Key) -> Metric) -> [Key: Metric] {
            Dictionary(uniqueKeysWithValues: keys.map { ($0, make($0)) })
        }

        /// Counts a page of events: by type, and for job outcomes by outcome and code (each counter
        /// once per page), with each job's stage timings.
        func count(_ envelopes: [EventEnvelope], changes: [MetricsFold.Change], factory: PrometheusMetricsFactory) {
            var types: [JobEventType: Int] = [:]
            var outcomes: [OutcomeCode: Int] = [:]
            var dead = 0
            for (envelope, change) in zip(envelopes, changes) {
                let event = envelope.event
                types[event.type, default: 0] += 1
                guard let outcome = change.outcome else { continue }
                outcomes[OutcomeCode(outcome: outcome, code: event.error?.code ?? "none"), default: 0] += 1
                if event.type == .dead { dead += 1 }
                if let result = event.result { time(result) }
            }
            for (type, count) in types { events[type]?.increment(by: count) }
            for (key, count) in outcomes { counter(for: key, factory: factory).increment(by: count) }
            if dead > 0 { deadLetterEvents.increment(by: dead) }
        }

        private struct OutcomeCode: Hashable {
            var outcome: String
            var code: String
        }

        /// `darkroom_jobs_total`'s counter for an outcome and code. Codes come from workers; a
        /// runaway set of them must not grow the registry (and every scrape) without bound, so
        /// past the cap new codes count as `other`.
        private func counter(for key: OutcomeCode, factory: PrometheusMetricsFactory) -> MetricsCounter {
            jobs.withLock { counters in
                var code = key.code
                if counters.count >= Self.maxJobSeries, counters[key.outcome + " " + code] == nil { code = "other" }
                let name = key.outcome + " " + code
                if let counter = counters[name] { return counter }
                let counter = MetricsCounter(
                    label: "darkroom_jobs_total", dimensions: [("outcome", key.outcome), ("code", code)], factory: factory)
                counters[name] = counter
                return counter
            }
        }

        /// Records a result's stage times and their sum.
        private func time(_ result: JobResult) {
            var total = 0.0
            func stage(_ timer: MetricsTimer, _ milliseconds: Double?) {
                guard let milliseconds, milliseconds.isFinite, milliseconds >= 0 else { return }
                total += milliseconds
                timer.recordNanoseconds(Int64(milliseconds * 1_000_000))
            }
            let timings = result.ms
            stage(stageTimers.fetch, timings.fetch)
            stage(stageTimers.decode, timings.decode)
            stage(stageTimers.process, timings.process)
            stage(stageTimers.encode, timings.encode)
            stage(stageTimers.store, timings.store)
            jobDuration[result.cache]?.recordNanoseconds(Int64(total * 1_000_000))
        }
    }
}
