import CoreMetrics
import DarkroomQueue
import DarkroomSystem
import Prometheus

/// The coordinator's metrics: a fold of the event stream into swift-metrics instruments, backed by
/// a `PrometheusCollectorRegistry` this object owns (no global `MetricsSystem.bootstrap`, so tests
/// and several coordinators in one process each have their own).
///
/// Feed it every batch the coordinator reads (`record(_:now:)`), tell it when a read found nothing
/// (`recordCaughtUp()`), and set the queue gauges from a periodic poll (`updateQueueGauges`).
/// `exposition()` is the Prometheus text for `/metrics`; `snapshot()` the plain counters for
/// `/status`. The metric names are listed in docs/coordinator.md.
public final class CoordinatorMetrics: Sendable {
    /// The registry the instruments live in; `/metrics` emits it.
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    let state = Locked(MetricsFold())
    private let instruments: Instruments

    /// Seconds: cache hits take well under a millisecond, large fetches seconds.
    static let stageBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .seconds(2.5), .seconds(5), .seconds(10), .seconds(30),
    ]

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.stageBuckets
        self.factory = factory
        instruments = Instruments(factory: factory)
    }

    /// Folds a batch of events read from the stream, in stream order. `now` is when they were read:
    /// the checkpoint lag is `now` minus the last event's stream time.
    public func record(_ envelopes: [EventEnvelope], now: Timestamp = .now()) {
        guard !envelopes.isEmpty else { return }
        let changes = state.withLock { fold in
            fold.caughtUp = false
            let changes = envelopes.map { fold.apply($0) }
            if let last = envelopes.last { fold.advance(to: last) }
            return changes
        }
        instruments.count(envelopes, changes: changes, factory: factory)
        refreshCheckpointLag(now: now)
        instruments.liveWorkers.record(state.withLock { $0.liveWorkerCount })
    }

    /// A read after the last recorded event found nothing: the coordinator is caught up, so its
    /// checkpoint lag is zero however old the last event is, until the next batch.
    public func recordCaughtUp() {
        state.withLock {
            $0.caughtUpAt = ContinuousClock.now
            $0.caughtUp = true
        }
        instruments.checkpointLag.record(0)
    }

    /// Sets the checkpoint lag as of `now`: a coordinator that stopped reading shows a growing lag
    /// at every scrape, not the value of its last read.
    func refreshCheckpointLag(now: Timestamp) {
        let (caughtUp, last) = state.withLock { ($0.caughtUp, $0.lastStreamTime) }
        guard !caughtUp, let last else {
            instruments.checkpointLag.record(0)
            return
        }
        instruments.checkpointLag.record(max(Double(now.duration(since: last).wholeMilliseconds) / 1000, 0))
    }

    /// Sets the queue gauges from a poll of the queue (the coordinator's caller polls Redis).
    /// - Parameters:
    ///   - depth: ready jobs per priority; a priority absent from the dictionary is set to 0.
    ///   - lagSeconds: per priority, how long the oldest ready job has waited (0 when none);
    ///     priorities absent from the dictionary keep their gauge as it was.
    ///   - delayed: jobs waiting for their `notBefore`; nil leaves the gauge as it was.
    ///   - pending: jobs delivered and not yet finished; nil leaves the gauge as it was.
    ///   - deadLetters: entries in the dead-letter queue; nil leaves the gauge as it was.
    public func updateQueueGauges(
        depth: [JobPriority: Int], lagSeconds: [JobPriority: Double] = [:], delayed: Int? = nil, pending: Int? = nil,
        deadLetters: Int? = nil
    ) {
        for priority in JobPriority.allCases {
            instruments.depth[priority]?.record(depth[priority] ?? 0)
        }
        // Lag is only set where it was measured: a gauge left at 0 would claim an empty queue.
        for (priority, seconds) in lagSeconds { instruments.lag[priority]?.record(max(seconds, 0)) }
        if let delayed { instruments.delayed.record(delayed) }
        if let pending { instruments.pending.record(pending) }
        if let deadLetters { instruments.deadLetters.record(deadLetters) }
        let gauges = QueueGauges(
            depth: Dictionary(uniqueKeysWithValues: JobPriority.allCases.map { ($0.rawValue, depth[$0] ?? 0) }),
            lagSeconds: Dictionary(uniqueKeysWithValues: lagSeconds.map { ($0.key.rawValue, max($0.value, 0)) }),
            delayed: delayed, pending: pending, deadLetters: deadLetters)
        state.withLock { $0.queue = gauges }
    }

    /// `updateQueueGauges` from a driver's `counts()` (depth per priority, delayed, pending, dead).
    /// Counts a gap: the stream had dropped events a reader had not read (`missing` of them, when
    /// that can be known).
    public func recordGap(missing: Int?) {
        instruments.gaps.increment()
        if let missing, missing > 0 { instruments.eventsLost.increment(by: Int64(missing)) }
    }

    /// The gauges from a queue's counts. Lag per priority is the age of its oldest ready job
    /// (`QueueCounts.oldestReady`) at `now`, and 0 for a priority with none ready; a priority whose
    /// driver keeps no such time (the in-memory queue) leaves its lag unset.
    public func updateQueueGauges(_ counts: QueueCounts, now: Timestamp = .now()) {
        var lagSeconds: [JobPriority: Double] = [:]
        for priority in JobPriority.allCases {
            if let oldest = counts.oldestReady[priority] {
                lagSeconds[priority] = Double(now.millisecondsSince1970 - oldest.millisecondsSince1970) / 1000
            } else if counts.ready[priority, default: 0] == 0 {
                lagSeconds[priority] = 0
            }
        }
        updateQueueGauges(
            depth: counts.ready, lagSeconds: lagSeconds, delayed: counts.delayed, pending: counts.pending,
            deadLetters: counts.deadLettered)
    }

    /// The Prometheus text exposition format (version 0.0.4) of every instrument.
    public func exposition() -> [UInt8] {
        refreshCheckpointLag(now: .now())
        return registry.emitToBuffer()
    }

    /// When an event was appended to the stream: a Redis stream id's milliseconds (the Redis
    /// server's clock, one clock for the whole fleet); the event's own `at` for other drivers.
    static func streamTime(of envelope: EventEnvelope) -> Timestamp {
        if let position = StreamPosition(envelope.cursor), !position.isDense, let milliseconds = Int64(exactly: position.major) {
            return Timestamp(millisecondsSince1970: milliseconds)
        }
        return envelope.event.at
    }
}
