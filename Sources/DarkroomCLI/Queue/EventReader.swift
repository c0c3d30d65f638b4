import DarkroomClient
import DarkroomEventStream
import DarkroomQueue

/// Follows an `EventSource` and hands the matching events to a closure; the part of
/// `darkroom events` that does not print events, so it can be tested on a `MemoryQueue`. Notes
/// about the stream — lost and regained Redis, trimmed or dropped events — go to `note`.
struct EventReader: Sendable {
    var filter: EventFilter
    var follow: Bool
    var limit: Int?
    var pageSize = 500
    /// How long one read waits for new events when following (also the longest a stop request waits).
    var pollWait: Duration = .seconds(1)
    /// `--drop-when-behind`: read ahead into this many events, dropping the oldest; nil: back-pressure.
    var dropLimit: Int?
    /// How long a follower rides out an unreachable queue before failing.
    var outageLimit: Duration = OutageTolerance.limit

    /// Reads from `start` until the end (or, following, until `shouldStop`), passing each match to
    /// `emit`. Returns the cursor of the last event read (matching or not) to resume after; nil
    /// when nothing was read and the start named no cursor.
    func read(
        from start: EventSource.Start, on queue: any JobQueueDriver, shouldStop: () -> Bool,
        note: @escaping @Sendable (String) -> Void = { StandardError.line("darkroom: " + $0) },
        emit: (JobEvent) throws -> Void
    ) async throws -> EventCursor? {
        var cursor: EventCursor?
        switch start {
        case .beginning: cursor = .start
        case .after(let after): cursor = after
        case .latest, .time: cursor = nil
        }
        var emitted = 0
        let configuration = EventSource.Configuration(
            policy: dropLimit.map { .dropOldest(limit: $0) } ?? .backpressure, pageSize: pageSize, pollWait: pollWait,
            follows: follow, idleNotices: follow,
            // A one-shot read fails at once; a follower rides out a Redis restart.
            outageLimit: follow ? outageLimit : .zero, isTransient: QueueCommandRunner.isUnreachable,
            onStatus: OutageTolerance.notes(limit: outageLimit, note))
        guard !shouldStop() else { return cursor }
        for try await item in queue.eventSource(from: start, configuration: configuration) {
            switch item {
            case .event(let envelope):
                cursor = envelope.cursor
                if filter.matches(envelope.event) {
                    try emit(envelope.event)
                    emitted += 1
                    if let limit = self.limit, emitted >= limit { return cursor }
                }
            case .idle(let at): cursor = at
            case .gap(let gap): note(EventFormatting.describe(gap))
            case .dropped(let drop): note(EventFormatting.describe(drop))
            }
            if shouldStop() { break }
        }
        return cursor
    }
}
