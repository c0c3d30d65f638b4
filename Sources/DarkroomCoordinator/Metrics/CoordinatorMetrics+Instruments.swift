import CoreMetrics
import DarkroomQueue
import Prometheus
import Synchronization

// Prometheus declares its own Counter and Gauge; these are swift-metrics' API types.
typealias MetricsCounter = CoreMetrics.Counter
typealias MetricsGauge = CoreMetrics.Gauge
typealias MetricsTimer = CoreMetrics.Timer

extension CoordinatorMetrics {
    /// The swift-metrics instruments, made once through the Prometheus factory. Counters whose labels
    /// come from events (outcome and error code) are made on first use and kept by label.
    final class Instruments: Sendable {
        let events: [JobEventType: MetricsCounter]
        let stages: [String: MetricsTimer]
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
        let jobs = Mutex<[String: MetricsCounter]>([:])

        static let stageNames = ["fetch", "decode", "process", "encode", "store"]
        /// The most `darkroom_jobs_total` series (outcome × code) before codes fold into `other`.
        static let maxJobSeries = 500

        init(factory: PrometheusMetricsFactory) {
            events = Self.each(JobEventType.allCases) {
                MetricsCounter(label: "darkroom_coordinator_events_total", dimensions: [("type", $0.rawValue)], factory: factory)
            }
            stages = Self.each(Self.stageNames) { MetricsTimer(label: "darkroom_job_stage_duration_seconds", dimensions: [("stage", $0)], factory: factory) }
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

        /// Counts one event: by type, and for job outcomes by outcome and code, with its timings.
        func count(_ event: JobEvent, change: MetricsFold.Change, factory: PrometheusMetricsFactory) {
            events[event.type]?.increment()
            guard let outcome = change.outcome else { return }
            let counter = jobs.withLock { counters in
                var code = event.error?.code ?? "none"
                // Codes come from workers; a runaway set of them must not grow the registry (and
                // every scrape) without bound, so past the cap new codes count as `other`.
                if counters.count >= Self.maxJobSeries, counters[outcome + " " + code] == nil { code = "other" }
                let key = outcome + " " + code
                if let counter = counters[key] { return counter }
                let counter = MetricsCounter(label: "darkroom_jobs_total", dimensions: [("outcome", outcome), ("code", code)], factory: factory)
                counters[key] = counter
                return counter
            }
            counter.increment()
            if event.type == .dead { deadLetterEvents.increment() }
            guard let result = event.result else { return }
            let timings = result.ms
            let values = [timings.fetch, timings.decode, timings.process, timings.encode, timings.store]
            var total = 0.0
            for (name, milliseconds) in zip(Self.stageNames, values) {
                guard let milliseconds, milliseconds.isFinite, milliseconds >= 0 else { continue }
                total += milliseconds
                stages[name]?.recordNanoseconds(Int64(milliseconds * 1_000_000))
            }
            jobDuration[result.cache]?.recordNanoseconds(Int64(total * 1_000_000))
        }
    }
}
