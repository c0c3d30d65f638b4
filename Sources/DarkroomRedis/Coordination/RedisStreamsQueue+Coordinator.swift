import DarkroomQueue
import Foundation

/// The coordinator's state in Redis, beside the stream it folds (keys in `RedisQueueKeys`, scripts
/// in `CoordinatorScripts`).
extension RedisStreamsQueue: CoordinatorStore {
    /// How long a registration outlives the coordinator's last write: a coordinator gone longer
    /// than this is no longer registered, and publishers go back to the usual retention.
    public static let coordinatorRegistrationTTL: Duration = .seconds(7 * 24 * 3600)

    public func acquireCoordinatorLease(owner: String, ttl: Duration) async throws -> String {
        let reply = try await redis {
            try await self.eval(
                CoordinatorScripts.acquireLease, keys: [self.keys.coordinatorLease],
                arguments: ScriptArguments([owner, String(Self.milliseconds(ttl))]))
        }
        guard let holder = reply.string else { throw Self.queueError(.protocolError("the lease script answered \(reply)")) }
        return holder
    }

    public func releaseCoordinatorLease(owner: String) async throws {
        _ = try await redis {
            try await self.eval(CoordinatorScripts.releaseLease, keys: [self.keys.coordinatorLease], arguments: ScriptArguments([owner]))
        }
    }

    public func registerCoordinator(owner: String, streamCap: Int) async throws {
        _ = try await redis {
            try await self.eval(
                CoordinatorScripts.register, keys: [self.keys.coordinatorLease, self.keys.coordinator],
                arguments: ScriptArguments([
                    owner, String(max(streamCap, configuration.eventRetention)),
                    String(Self.milliseconds(Self.coordinatorRegistrationTTL)),
                ]))
        }
    }

    public func coordinatorRegistration() async throws -> CoordinatorRegistration? {
        let replies = try await redis {
            try await self.client.pipeline([
                ["HMGET", self.keys.coordinator, "checkpoint", "cap", "updatedAt"], ["GET", self.keys.coordinatorLease],
            ])
        }
        for reply in replies { try Self.throwing(reply) }
        guard let fields = replies[0].array, fields.count == 3, let cap = fields[1].string.flatMap(Int.init) else { return nil }
        return CoordinatorRegistration(
            checkpoint: fields[0].string.map(EventCursor.init(rawValue:)), streamCap: cap, leaseHolder: replies[1].string,
            updatedAt: fields[2].string.flatMap(Int64.init).map(Timestamp.init(millisecondsSince1970:)))
    }

    public func applyProjections(_ events: [EventEnvelope], after checkpoint: EventCursor?, owner: String) async throws
        -> ProjectionUpdate
    {
        guard !events.isEmpty else { return .applied }
        var arguments = ScriptArguments([
            owner, checkpoint?.rawValue ?? "", keyPrefix, String(Self.milliseconds(idempotencyWindow)),
            String(Self.milliseconds(Self.coordinatorRegistrationTTL)), String(clock.now().millisecondsSince1970),
            events[events.count - 1].cursor.rawValue,
        ])
        // The script keeps a job's record from its last event in the page, and the records of
        // failures; every other event goes without its record (most of what the script is sent).
        var lastOfJob: [JobID: Int] = [:]
        for (index, envelope) in events.enumerated() {
            if let job = envelope.event.job { lastOfJob[job] = index }
        }
        for (index, envelope) in events.enumerated() {
            let event = envelope.event
            let lastOfItsJob = event.job.map { lastOfJob[$0] == index } == true
            arguments.append(lastOfItsJob ? envelope.cursor.rawValue : "")
            arguments.append(event.type == .failed && event.willRetry == true ? "retrying" : event.type.rawValue)
            arguments.append(event.job?.rawValue ?? "")
            arguments.append(event.batch ?? "")
            arguments.append(event.worker ?? "")
            arguments.append(event.at.millisecondsSince1970)
            arguments.append(lastOfItsJob || event.type == .failed || event.type == .dead ? envelope.canonicalRecord : [])
        }
        let sent = arguments
        let reply = try await redis {
            try await self.eval(CoordinatorScripts.apply, keys: [self.keys.coordinatorLease, self.keys.coordinator], arguments: sent)
        }
        switch reply.array?.first?.integer {
        case 1: return .applied
        case 0: return .leaseLost
        case -1:
            let stored = reply.array?.dropFirst().first?.string ?? ""
            return .checkpointMoved(stored.isEmpty ? nil : EventCursor(rawValue: stored))
        default: throw Self.queueError(.protocolError("the projection script answered \(reply)"))
        }
    }

    public func trimEvents(before cursor: EventCursor) async throws {
        guard StreamID.isValid(cursor.rawValue) else {
            throw JobQueueError(.invalidCursor, "'\(cursor.rawValue.prefix(40))' is not a cursor of the Redis queue")
        }
        let reply = try await redis { try await self.client.command(["XTRIM", self.keys.events, "MINID", "~", cursor.rawValue]) }
        try Self.throwing(reply)
    }

    public func markLapsedWorkersOffline(owner: String, grace: Duration) async throws -> [String] {
        // Candidates: workers the projections list, whose heartbeat record is gone. The script
        // checks again, atomically with the event, so a racing heartbeat or a second coordinator
        // cannot make a worker go offline twice.
        let names =
            try await redis { try await self.client.command(["ZRANGE", self.keys.workerStates, "0", "-1"]) }.array?
            .compactMap(\.string) ?? []
        guard !names.isEmpty else { return [] }
        let states = try await redis {
            try await self.client.pipeline(names.flatMap { [["HGET", self.keys.workerState($0), "state"], ["EXISTS", self.keys.worker($0)]] })
        }
        var lapsed: [String] = []
        let now = clock.now()
        for (index, name) in names.enumerated() where states[index * 2].string == "online" && states[index * 2 + 1].integer == 0 {
            let event = JobEvent.workerOffline(worker: name, at: now)
            var arguments = ScriptArguments([owner])
            arguments.append(EventJSONWriter.bytes(event))
            arguments.append(configuration.eventRetention)
            arguments.append(now.millisecondsSince1970)
            arguments.append(Self.milliseconds(grace, atLeast: 0))
            let sent = arguments
            let reply = try await redis {
                try await self.eval(
                    CoordinatorScripts.markOffline,
                    keys: [self.keys.coordinatorLease, self.keys.workerState(name), self.keys.worker(name), self.keys.events],
                    arguments: sent)
            }
            if reply.integer == 1 { lapsed.append(name) }
        }
        return lapsed
    }

    public func promoteDueDelayedJobs(limit: Int) async throws -> Int {
        let now = String(clock.now().millisecondsSince1970)
        let reply = try await redis {
            try await self.eval(
                StreamScripts.promoteDue, keys: [self.keys.delayed] + self.keys.streams,
                arguments: ScriptArguments([now, String(max(limit, 1))]))
        }
        return Int(reply.integer ?? 0)
    }

    public func jobProjection(_ id: JobID) async throws -> JobProjection? {
        let reply = try await redis {
            try await self.client.command(["HMGET", self.keys.jobState(id), "event", "id", "starts", "startedAt", "durationMs", "state"])
        }
        try Self.throwing(reply)
        guard let fields = reply.array, fields.count == 6, let json = fields[0].bytes, let cursor = fields[1].string,
            case .event(let event) = JobEvent.decode(Data(json))
        else { return nil }
        let startedAt = fields[3].string.flatMap(Int64.init).map(Timestamp.init(millisecondsSince1970:))
        return JobProjection(
            latest: event, cursor: EventCursor(rawValue: cursor), starts: fields[2].string.flatMap(Int.init) ?? 0,
            startedAt: fields[5].string == "running" || fields[4].string != nil ? startedAt : nil,
            durationMilliseconds: fields[4].string.flatMap(Int64.init))
    }

    public func batchProjection(_ batch: String) async throws -> BatchProjection? {
        let reply = try await redis { try await self.client.command(["HMGET", self.keys.batch(batch), "running", "queued", "p50Ms", "p95Ms"]) }
        try Self.throwing(reply)
        guard let fields = reply.array, fields.count == 4, let queued = fields[1].string.flatMap(Int.init) else { return nil }
        return BatchProjection(
            running: max(fields[0].string.flatMap(Int.init) ?? 0, 0), queued: queued,
            p50Milliseconds: fields[2].string.flatMap(Double.init), p95Milliseconds: fields[3].string.flatMap(Double.init))
    }

    public func workerProjections() async throws -> [WorkerProjection] {
        let names =
            try await redis { try await self.client.command(["ZRANGE", self.keys.workerStates, "0", "-1"]) }.array?
            .compactMap(\.string) ?? []
        guard !names.isEmpty else { return [] }
        let replies = try await redis {
            try await self.client.pipeline(
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
        let reply = try await redis { try await self.client.command(["ZREVRANGE", self.keys.batches, "0", String(max(limit, 1) - 1)]) }
        try Self.throwing(reply)
        return reply.array?.compactMap(\.string) ?? []
    }

    public func recentFailures(limit: Int) async throws -> [JobEvent] {
        let reply = try await redis { try await self.client.command(["LRANGE", self.keys.failures, "0", String(max(limit, 1) - 1)]) }
        try Self.throwing(reply)
        return (reply.array ?? []).compactMap { item in
            guard let json = item.bytes, case .event(let event) = JobEvent.decode(Data(json)) else { return nil }
            return event
        }
    }

    public func jobsEnded(inLast seconds: Int, before now: Timestamp) async throws -> Int {
        let current = now.millisecondsSince1970 / 1000
        let fields = (1...max(seconds, 1)).map { String(current - Int64($0)) }
        let reply = try await redis { try await self.client.command(["HMGET", self.keys.throughput] + fields) }
        try Self.throwing(reply)
        return reply.array?.compactMap { $0.string.flatMap(Int.init) }.reduce(0, +) ?? 0
    }

    private static func throwing(_ reply: RedisReply) throws {
        do { try reply.throwingOnError() } catch { throw queueError(error) }
    }
}
