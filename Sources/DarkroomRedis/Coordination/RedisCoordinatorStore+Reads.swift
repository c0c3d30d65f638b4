import DarkroomFleetStatus
import DarkroomQueue
import Foundation

/// The projections as `darkroom get`, `darkroom status` and `/status` read them: one command or
/// one pipeline per answer.
extension RedisCoordinatorStore {
    public func jobProjection(_ id: JobID) async throws -> JobProjection? {
        let reply = try await redis {
            try await self.queue.client.command([
                "HMGET", self.keys.jobState(id), "event", "id", "starts", "startedAt", "durationMs", "state", "errors", "errorsDropped",
            ])
        }
        try Self.throwing(reply)
        guard let fields = reply.array, fields.count == 8, let json = fields[0].bytes, let cursor = fields[1].string,
            case .event(let event) = JobEvent.decode(Data(json))
        else { return nil }
        let startedAt = fields[3].string.flatMap(Int64.init).map(Timestamp.init(millisecondsSince1970:))
        return JobProjection(
            latest: event, cursor: EventCursor(rawValue: cursor), starts: fields[2].string.flatMap(Int.init) ?? 0,
            startedAt: fields[5].string == "running" || fields[4].string != nil ? startedAt : nil,
            durationMilliseconds: fields[4].string.flatMap(Int64.init),
            errors: Self.errorHistory(fields[6].bytes, dropped: fields[7].string.flatMap(Int.init) ?? 0))
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
