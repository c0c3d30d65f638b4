import DarkroomFleetStatus
import DarkroomQueue
import Foundation

/// The projections as `darkroom get`, `darkroom status` and `/status` read them: one command or
/// one pipeline per answer.
extension RedisCoordinatorStore {
    /// A job's projection: a finished job's record in its marker (`FinishedJobRecord`), with its
    /// terminal event read from the stream while the stream holds it; else the hash the fold keeps
    /// while a job runs (and kept for finished jobs by coordinators before the record). A hash
    /// newer than the record (a dead job retried from the dead-letter queue) wins.
    public func jobProjection(_ id: JobID) async throws -> JobProjection? {
        let replies = try await redis {
            try await self.queue.client.pipeline([
                ["HMGET", self.keys.jobState(id), "event", "id", "starts", "startedAt", "durationMs", "state", "errors", "errorsDropped"],
                ["GET", self.keys.marker(id)],
            ])
        }
        for reply in replies { try Self.throwing(reply) }
        guard replies.count == 2, let fields = replies[0].array, fields.count == 8 else { return nil }
        let errors = Self.errorHistory(fields[6].bytes, dropped: fields[7].string.flatMap(Int.init) ?? 0)
        var hashed: (event: JobEvent, cursor: EventCursor)?
        if let json = fields[0].bytes, let cursor = fields[1].string, case .event(let event) = JobEvent.decode(Data(json)) {
            hashed = (event, EventCursor(rawValue: cursor))
        }
        if let record = replies[1].bytes.flatMap(FinishedJobRecord.init(marker:)),
            hashed.map({ Self.isBefore($0.cursor, record.cursor) }) ?? true
        {
            return try await finishedProjection(id, record, errors: errors)
        }
        guard let (event, cursor) = hashed else { return nil }
        let startedAt = fields[3].string.flatMap(Int64.init).map(Timestamp.init(millisecondsSince1970:))
        return JobProjection(
            latest: event, cursor: cursor, starts: fields[2].string.flatMap(Int.init) ?? 0,
            startedAt: fields[5].string == "running" || fields[4].string != nil ? startedAt : nil,
            durationMilliseconds: fields[4].string.flatMap(Int64.init), errors: errors)
    }

    /// A finished job's projection from its record: the terminal event from the stream when it is
    /// still there, else what the record tells (`FinishedJobRecord.event(of:)`, `trimmed` set).
    private func finishedProjection(_ id: JobID, _ record: FinishedJobRecord, errors: JobErrorHistory) async throws -> JobProjection {
        let reply = try await redis {
            try await self.queue.client.command(["XRANGE", self.keys.events, record.cursor.rawValue, record.cursor.rawValue])
        }
        var latest: JobEvent?
        if let json = try StreamReplies.entries(reply).first?.value("event"), case .event(let event) = JobEvent.decode(Data(json)), event.job == id {
            latest = event
        }
        let event = latest ?? record.event(of: id)
        return JobProjection(
            latest: event, cursor: record.cursor, starts: record.starts,
            startedAt: record.durationMilliseconds.map { event.at.adding(.milliseconds(-$0)) },
            durationMilliseconds: record.durationMilliseconds, errors: errors,
            trimmed: latest == nil ? JobProjection.Trimmed(outputs: record.outputs) : nil)
    }

    /// Whether stream id `a` comes before `b` (unreadable ids count as older).
    private static func isBefore(_ a: EventCursor, _ b: EventCursor) -> Bool {
        guard let first = StreamPosition(a) else { return true }
        guard let second = StreamPosition(b) else { return false }
        return first < second
    }

    /// One error as the projection script stores it in a job's `errors` (`at` in milliseconds).
    private struct StoredError: Decodable {
        var attempt: Int
        var code: String
        var message: String
        var at: Int64
    }

    /// A job's `errors` field (a JSON array, oldest first); empty when absent or unreadable.
    static func errorHistory(_ json: [UInt8]?, dropped: Int) -> JobErrorHistory {
        let stored = json.flatMap { try? JSONDecoder().decode([StoredError].self, from: Data($0)) } ?? []
        return JobErrorHistory(
            errors: stored.map {
                JobAttemptError(
                    attempt: $0.attempt, error: JobError(code: $0.code, message: $0.message),
                    at: Timestamp(millisecondsSince1970: $0.at))
            },
            dropped: dropped)
    }

    public func batchProjection(_ batch: String) async throws -> BatchProjection? {
        let reply = try await redis { try await self.queue.client.command(["HMGET", self.keys.batch(batch), "running", "queued", "p50Ms", "p95Ms"]) }
        try Self.throwing(reply)
        guard let fields = reply.array, fields.count == 4, let queued = fields[1].string.flatMap(Int.init) else { return nil }
        return BatchProjection(
            running: max(fields[0].string.flatMap(Int.init) ?? 0, 0), queued: queued,
            p50Milliseconds: fields[2].string.flatMap(Double.init), p95Milliseconds: fields[3].string.flatMap(Double.init))
    }

    public func workerProjections() async throws -> [WorkerProjection] {
        let names =
            try await redis { try await self.queue.client.command(["ZRANGE", self.keys.workerStates, "0", "-1"]) }.array?
            .compactMap(\.string) ?? []
        guard !names.isEmpty else { return [] }
        let replies = try await redis {
            try await self.queue.client.pipeline(
                names.flatMap { [["HMGET", self.keys.workerState($0), "state", "done", "errors", "lastAt"], ["SCARD", self.keys.workerJobs($0)]] })
        }
        var projections: [WorkerProjection] = []
        for (index, name) in names.enumerated() {
            guard let fields = replies[index * 2].array, fields.count == 4,
                let state = fields[0].string.flatMap(WorkerProjection.State.init(rawValue:))
            else { continue }  // expired since the listing
            projections.append(
                WorkerProjection(
                    name: name, state: state, jobsDone: fields[1].string.flatMap(Int.init) ?? 0,
                    errors: fields[2].string.flatMap(Int.init) ?? 0, currentJobs: Int(replies[index * 2 + 1].integer ?? 0),
                    lastEventAt: fields[3].string.flatMap(Int64.init).map(Timestamp.init(millisecondsSince1970:))))
        }
        return projections.sorted { $0.name < $1.name }
    }

    public func recentBatches(limit: Int) async throws -> [String] {
        let reply = try await redis { try await self.queue.client.command(["ZREVRANGE", self.keys.batches, "0", String(max(limit, 1) - 1)]) }
        try Self.throwing(reply)
        return reply.array?.compactMap(\.string) ?? []
    }

    public func recentFailures(limit: Int) async throws -> [JobEvent] {
        let reply = try await redis { try await self.queue.client.command(["LRANGE", self.keys.failures, "0", String(max(limit, 1) - 1)]) }
        try Self.throwing(reply)
        return (reply.array ?? []).compactMap { item in
            guard let json = item.bytes, case .event(let event) = JobEvent.decode(Data(json)) else { return nil }
            return event
        }
    }

    public func jobsEnded(inLast seconds: Int, before now: Timestamp) async throws -> Int {
        let current = now.millisecondsSince1970 / 1000
        let fields = (1...max(seconds, 1)).map { String(current - Int64($0)) }
        let reply = try await redis { try await self.queue.client.command(["HMGET", self.keys.throughput] + fields) }
        try Self.throwing(reply)
        return reply.array?.compactMap { $0.string.flatMap(Int.init) }.reduce(0, +) ?? 0
    }

    public func minuteSeries(count: Int, endingAt now: Timestamp) async throws -> [FleetMinute] {
        let current = now.millisecondsSince1970 / 60_000
        let minutes = (0..<min(max(count, 1), 120)).map { current - Int64($0) }.reversed()
        let replies = try await redis { try await self.queue.client.pipeline(minutes.map { ["HGETALL", self.keys.minute($0)] }) }
        return zip(minutes, replies).map { minute, reply in
            let items = reply.array ?? []
            var fields: [String: Int] = [:]
            for index in stride(from: 0, to: items.count - 1, by: 2) {
                if let name = items[index].string, let n = items[index + 1].string.flatMap(Int.init) { fields[name] = n }
            }
            return FleetMinute(unixMinute: minute, fields: fields)
        }
    }
}
