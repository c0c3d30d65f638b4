import DarkroomQueue

/// Waits until every job of a batch has its terminal event, or a timeout.
///
/// The counts come from `batchProgress` — kept by the same atomic scripts that publish terminal
/// events, so they are right even when the event stream has been trimmed. The event stream is
/// only followed to notice progress at once (instead of polling slowly) and to show failures;
/// failures that happened before the wait began are looked up afterwards in what the stream still
/// holds.
struct BatchWaiter: Sendable {
    var batch: String
    var timeout: Duration?
    var failureSample = 5
    /// Progress is re-read at least this often even when no event arrives.
    var pollInterval: Duration = .seconds(1)
    var readWait: Duration = .milliseconds(500)
    /// Tells an unreachable queue (ridden out for a minute) from any other failure (thrown).
    var isOutage: @Sendable (any Error) -> Bool = OutageTolerance.isQueueUnavailable

    /// Nil when the batch is unknown. `onProgress` sees every new count; `onFailure` every failure
    /// that happens while waiting; `onNote` that the queue was lost, or is back.
    func wait(
        on queue: any JobQueueDriver & ProgressReportingQueue, onProgress: (BatchProgress) -> Void,
        onFailure: (BatchFailure) -> Void, onNote: (String) -> Void = { _ in }
    ) async throws -> BatchWaitResult? {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = timeout.map { start + $0 }
        guard var progress = try await queue.batchProgress(batch) else { return nil }
        let followStart = try await queue.latestEventCursor()
        var cursor = followStart
        var live: [BatchFailure] = []
        var seen: Set<String> = []
        var lastPoll = clock.now
        var timedOut = false
        var tolerance = OutageTolerance(isOutage: isOutage)
        onProgress(progress)
        while !progress.isComplete {
            let now = clock.now
            if let deadline, now >= deadline {
                timedOut = true
                break
            }
            do {
                var wait = readWait
                if let deadline { wait = min(wait, deadline - now) }
                let page = try await queue.readEvents(after: cursor, limit: 1000, wait: max(wait, .zero))
                var ended = false
                for envelope in page {
                    cursor = envelope.cursor
                    guard envelope.event.batch == batch, envelope.event.isTerminal else { continue }
                    ended = true
                    if let failure = BatchFailure(envelope.event), seen.insert(failure.job).inserted {
                        if live.count < failureSample { live.append(failure) }
                        onFailure(failure)
                    }
                }
                if ended || clock.now - lastPoll >= pollInterval {
                    progress = try await queue.batchProgress(batch) ?? progress
                    lastPoll = clock.now
                    onProgress(progress)
                }
                tolerance.recovered(note: onNote)
            } catch {
                try await tolerance.absorb(error, note: onNote)
            }
        }
        // The counts can be ahead of the events read so far: read the rest for the summary.
        while live.count < failureSample, progress.failed + progress.dead > seen.count {
            let page = try await queue.readEvents(after: cursor, limit: 1000, wait: .zero)
            if page.isEmpty { break }
            for envelope in page {
                cursor = envelope.cursor
                if envelope.event.batch == batch, let failure = BatchFailure(envelope.event), seen.insert(failure.job).inserted,
                    live.count < failureSample
                {
                    live.append(failure)
                }
            }
        }
        var failures = live
        if failures.count < failureSample, progress.failed + progress.dead > failures.count {
            let earlier = try await earlierFailures(on: queue, before: followStart, excluding: seen)
            failures = Array((earlier + live).prefix(failureSample))
        }
        return BatchWaitResult(
            batch: batch, progress: progress, timedOut: timedOut, failures: failures,
            elapsed: clock.now - start)
    }

    /// The batch's failures published before `end` (the cursor the wait started following at),
    /// from what the stream still holds.
    private func earlierFailures(
        on queue: any JobQueueDriver, before end: EventCursor,
        excluding seen: Set<String>
    ) async throws -> [BatchFailure] {
        guard end != .start else { return [] }
        var found: [BatchFailure] = []
        var cursor = EventCursor.start
        var seen = seen
        while found.count < failureSample {
            let page = try await queue.readEvents(after: cursor, limit: 1000, wait: .zero)
            if page.isEmpty { break }
            for envelope in page {
                cursor = envelope.cursor
                if envelope.event.batch == batch, let failure = BatchFailure(envelope.event), seen.insert(failure.job).inserted {
                    found.append(failure)
                }
                if envelope.cursor == end || found.count >= failureSample { return found }
            }
        }
        return found
    }
}
