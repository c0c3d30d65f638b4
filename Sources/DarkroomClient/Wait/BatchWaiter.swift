import DarkroomEventStream
import DarkroomQueue

/// Waits until every job of a batch has its terminal event, or a timeout.
///
/// The counts come from `batchProgress` — kept by the same atomic scripts that publish terminal
/// events, so they are right even when the event stream has been trimmed. The event stream is
/// only followed (an `EventSource`, which rides out a queue restart) to notice progress at once
/// instead of polling slowly, and to show failures; failures that happened before the wait began
/// are looked up afterwards in what the stream still holds.
struct BatchWaiter: Sendable {
    var batch: String
    var timeout: Duration?
    var failureSample = 5
    /// Progress is re-read at least this often even when no event arrives.
    var pollInterval: Duration = .seconds(1)
    /// How long one read of the stream waits; also how late the timeout may be noticed.
    var readWait: Duration = .milliseconds(500)
    /// Tells an unreachable queue (ridden out for `outageLimit`) from any other failure (thrown).
    var isOutage: @Sendable (any Error) -> Bool = OutageTolerance.isQueueUnavailable
    var outageLimit: Duration = OutageTolerance.limit

    /// Nil when the batch is unknown. `onProgress` sees every new count; `onFailure` every failure
    /// that happens while waiting; `onNote` that the queue was lost, or is back.
    func wait(
        on queue: any JobQueueDriver & ProgressReportingQueue, onProgress: (BatchProgress) -> Void,
        onFailure: (BatchFailure) -> Void, onNote: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> BatchWaitResult? {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = timeout.map { start + $0 }
        guard var progress = try await queue.batchProgress(batch) else { return nil }
        let followStart = try await queue.latestEventCursor()
        var cursor = followStart
        var failures = FailureSample(batch: batch, size: failureSample)
        var lastPoll = clock.now
        var timedOut = false
        onProgress(progress)
        if let deadline, clock.now >= deadline, !progress.isComplete { timedOut = true }
        if !progress.isComplete, !timedOut {
            let events = queue.eventSource(from: .after(followStart), configuration: followConfiguration(deadline: deadline, onNote: onNote))
            do {
                for try await item in events {
                    var ended = false
                    if case .event(let envelope) = item {
                        cursor = envelope.cursor
                        if envelope.event.batch == batch, envelope.event.isTerminal {
                            ended = true
                            if let failure = failures.add(envelope.event) { onFailure(failure) }
                        }
                    }
                    if ended || clock.now - lastPoll >= pollInterval {
                        do {
                            progress = try await queue.batchProgress(batch) ?? progress
                            onProgress(progress)
                        } catch  where isOutage(error) {
                            // The event source notices the outage on its next read and rides it out.
                        }
                        lastPoll = clock.now
                    }
                    if let deadline, clock.now >= deadline, !progress.isComplete { timedOut = true }
                    if progress.isComplete || timedOut { break }
                }
            } catch  where isOutage(error) && deadline.map({ clock.now >= $0 }) == true {
                timedOut = true
            }
        }
        // The counts can be ahead of the events read so far: read the rest for the summary.
        if failures.wantsMore(progress) {
            for try await item in queue.eventSource(from: .after(cursor), configuration: Self.oneShot) {
                if let envelope = item.envelope { failures.add(envelope.event) }
                if !failures.wantsMore(progress) { break }
            }
        }
        var sample = failures.live
        if sample.count < failureSample, progress.failed + progress.dead > sample.count, followStart != .start {
            // Failures from before the wait, oldest first, up to where following began.
            var earlier = FailureSample(batch: batch, size: failureSample, seen: failures.seen)
            for try await item in queue.eventSource(from: .beginning, configuration: Self.oneShot) {
                guard let envelope = item.envelope else { continue }
                earlier.add(envelope.event)
                if envelope.cursor == followStart || earlier.live.count >= failureSample { break }
            }
            sample = Array((earlier.live + sample).prefix(failureSample))
        }
        // The batch's own duration, also when it ended before the wait began.
        var duration: Duration?
        if progress.isComplete { duration = try await queue.batchTimes(batch)?.duration }
        return BatchWaitResult(
            batch: batch, progress: progress, timedOut: timedOut, failures: sample, elapsed: clock.now - start, duration: duration)
    }

    /// Following: idle notes so progress is re-read and the deadline checked while nothing
    /// happens. An outage is ridden out for `outageLimit`, cut to the time left when the wait
    /// begins: an outage that outlasts the deadline ends the wait as timed out, late by at most
    /// the time that had passed before the outage began.
    private func followConfiguration(
        deadline: ContinuousClock.Instant?, onNote: @escaping @Sendable (String) -> Void
    ) -> EventSource.Configuration {
        var limit = outageLimit
        if let deadline { limit = max(min(limit, deadline - .now), .zero) }
        return EventSource.Configuration(
            pageSize: 1000, pollWait: timeout.map { min(readWait, $0) } ?? readWait, idleNotices: true,
            outageLimit: limit, isTransient: isOutage, onStatus: OutageTolerance.notes(limit: outageLimit, onNote))
    }

    /// Reading what the stream holds now, once, failing at the first error.
    private static let oneShot = EventSource.Configuration(pageSize: 1000, follows: false, outageLimit: .zero)
}

/// The first few failures of a batch, each job once.
private struct FailureSample {
    let batch: String
    let size: Int
    var seen: Set<String> = []
    var live: [BatchFailure] = []

    /// Records `event` when it is a new failure of the batch; returns it when it is.
    @discardableResult
    mutating func add(_ event: JobEvent) -> BatchFailure? {
        guard event.batch == batch, let failure = BatchFailure(event), seen.insert(failure.job).inserted else { return nil }
        if live.count < size { live.append(failure) }
        return failure
    }

    /// Whether the counts show failures not read yet and the sample has room for them.
    func wantsMore(_ progress: BatchProgress) -> Bool {
        live.count < size && progress.failed + progress.dead > seen.count
    }
}
