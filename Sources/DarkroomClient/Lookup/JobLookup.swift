import DarkroomFleetStatus
import DarkroomQueue
import DarkroomSystem

/// Finds a job's latest state and every attempt's error (`JobErrorHistory`).
///
/// With a coordinator (the queue has a `CoordinatorStore` and one is registered) the job's
/// projection answers in O(1), and only the events after the coordinator's checkpoint are read
/// (those it has not folded yet), so the answer is as fresh as a scan's.
///
/// Without one it scans the event stream. The limit is then the stream's retention (about the last
/// 100,000 events by default): a job whose events were trimmed cannot be found. A UUIDv7 id says
/// when it was made, so the scan starts a few minutes before that instead of at the oldest
/// retained event.
struct JobLookup: Sendable {
    var job: JobID
    var pageSize = 1000
    /// How far before the id's own time the scan starts (clock skew between hosts).
    var skew: Duration = .seconds(300)

    func status(on queue: any JobQueueDriver) async throws -> JobStatus {
        try await detail(on: queue).status
    }

    /// The job's latest state and its errors: the projection's, then those of the events after
    /// the coordinator's checkpoint; without a coordinator, those of the events the scan reads.
    func detail(on queue: any JobQueueDriver) async throws -> JobDetail {
        if let store = (queue as? any CoordinatorStoreProviding)?.coordinatorStore, let checkpoint = try await store.coordinatorRegistration()?.checkpoint {
            let projection = try await store.jobProjection(job)
            let projected = JobDetail(
                status: projection.flatMap { Self.status(of: $0.latest) } ?? .notFound, errors: projection?.errors ?? JobErrorHistory())
            var detail = try await scan(queue, after: checkpoint, from: projected)
            // A newer event read after the checkpoint replaces the finished record's summary.
            if detail.status == projected.status { detail.trimmed = projection?.trimmed }
            return detail
        }
        var cursor = EventCursor.start
        // A made-up id "from the future" would skip real events: scan everything then.
        if let made = Self.creationTime(of: job), made <= .now() {
            cursor = try await queue.eventCursor(at: made.adding(.zero - skew))
        }
        return try await scan(queue, after: cursor, from: JobDetail(status: .notFound))
    }

    /// The latest state of the jobs whose id starts with `prefix` (`--id-from-source` ids are
    /// `SOURCE#DIGEST`): the state the newest event among them gives, with the errors of that
    /// event's job. Scans every event the stream holds, coordinator or not (projections are found
    /// by whole id only).
    func latestDetail(ofIDsWithPrefix prefix: String, on queue: any JobQueueDriver) async throws -> JobDetail {
        try await scan(queue, after: .start, from: JobDetail(status: .notFound)) { $0.rawValue.hasPrefix(prefix) }
    }

    /// The detail after the events following `cursor`, starting from `start`, of the job (or, of
    /// the jobs `matches` accepts, the one with the newest event).
    private func scan(
        _ queue: any JobQueueDriver, after cursor: EventCursor, from start: JobDetail, matches: ((JobID) -> Bool)? = nil
    ) async throws -> JobDetail {
        var cursor = cursor
        var status = start.status
        var latest = job
        // Only jobs that failed get a history: a prefix scan can match many jobs.
        var histories: [JobID: JobErrorHistory] = start.errors.errors.isEmpty ? [:] : [job: start.errors]
        while true {
            let page = try await queue.readEvents(after: cursor, limit: pageSize, wait: .zero)
            if page.isEmpty { break }
            for envelope in page {
                cursor = envelope.cursor
                let event = envelope.event
                guard let id = event.job, matches?(id) ?? (id == job) else { continue }
                if let error = JobAttemptError(event) { histories[id, default: JobErrorHistory()].append(error) }
                // The latest event wins: a dead job retried from the dead-letter queue ends again.
                if let found = Self.status(of: event) {
                    status = found
                    latest = id
                }
            }
        }
        return JobDetail(status: status, errors: status == .notFound ? JobErrorHistory() : histories[latest] ?? JobErrorHistory())
    }

    /// What a job event says of its job; nil for events that say nothing of it.
    static func status(of event: JobEvent) -> JobStatus? {
        switch event.type {
        case .started: .running(event)
        case .failed where event.willRetry == true: .retrying(event)
        case .succeeded, .failed, .dead, .cancelled: .ended(event)
        case .batchEnqueued, .workerOnline, .workerOffline: nil
        }
    }

    /// The creation time in a UUIDv7 id (`0195…-…-7…`), or nil for any other id.
    static func creationTime(of id: JobID) -> Timestamp? {
        let text = Array(id.rawValue.utf8)
        guard text.count == 36, text[8] == UInt8(ascii: "-"), text[13] == UInt8(ascii: "-"), text[14] == UInt8(ascii: "7"),
            text[18] == UInt8(ascii: "-"), text[23] == UInt8(ascii: "-")
        else { return nil }
        var milliseconds: Int64 = 0
        for byte in text[0..<8] + text[9..<13] {
            guard let digit = HexDigits.value(byte) else { return nil }
            milliseconds = milliseconds << 4 | Int64(digit)
        }
        return Timestamp(millisecondsSince1970: milliseconds)
    }
}
