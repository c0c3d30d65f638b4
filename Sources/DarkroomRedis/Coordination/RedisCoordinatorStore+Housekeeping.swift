import DarkroomFleetStatus
import DarkroomQueue

/// What the lease holder does once a second besides folding: workers whose heartbeat lapsed go
/// offline (with their event), due delayed jobs move into their streams, the stream is trimmed
/// behind every reader.
extension RedisCoordinatorStore {
    public func markLapsedWorkersOffline(owner: String, grace: Duration) async throws -> [String] {
        // Candidates: workers the projections list, whose heartbeat record is gone. The script
        // checks again, atomically with the event, so a racing heartbeat or a second coordinator
        // cannot make a worker go offline twice.
        let names =
            try await redis { try await self.queue.client.command(["ZRANGE", self.keys.workerStates, "0", "-1"]) }.array?
            .compactMap(\.string) ?? []
        guard !names.isEmpty else { return [] }
        let states = try await redis {
            try await self.queue.client.pipeline(names.flatMap { [["HGET", self.keys.workerState($0), "state"], ["EXISTS", self.keys.worker($0)]] })
        }
        var lapsed: [String] = []
        let now = queue.clock.now()
        for (index, name) in names.enumerated() where states[index * 2].string == "online" && states[index * 2 + 1].integer == 0 {
            let event = JobEvent.workerOffline(worker: name, at: now)
            var arguments = ScriptArguments([owner])
            arguments.append(EventJSONWriter.bytes(event))
            arguments.append(queue.configuration.eventRetention)
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
        let now = String(queue.clock.now().millisecondsSince1970)
        // Most rounds find nothing due: a plain range read says so without the script's call.
        let due = try await redis { try await self.queue.client.command(["ZRANGE", self.keys.delayed, "-inf", now, "BYSCORE", "LIMIT", "0", "1"]) }
        try Self.throwing(due)
        guard due.array?.isEmpty == false else { return 0 }
        let reply = try await redis {
            try await self.eval(
                StreamScripts.promoteDue, keys: [self.keys.delayed] + self.keys.streams,
                arguments: ScriptArguments([now, String(max(limit, 1)), queue.keyPrefix, RedisQueueKeys.group]))
        }
        return Int(reply.integer ?? 0)
    }

    public func trimEvents(before cursor: EventCursor) async throws {
        guard StreamID.isValid(cursor.rawValue) else {
            throw JobQueueError(.invalidCursor, "'\(cursor.rawValue.prefix(40))' is not a cursor of the Redis queue")
        }
        let reply = try await redis { try await self.queue.client.command(["XTRIM", self.keys.events, "MINID", "~", cursor.rawValue]) }
        try Self.throwing(reply)
    }
}

extension CoordinatorScripts {
    /// Marks one worker offline when its heartbeat has lapsed, with its `workerOffline` event.
    ///
    /// `KEYS`: lease, worker projection, worker heartbeat record, events stream.
    /// `ARGV`: owner, the event JSON, the event retention, now (ms), grace (ms).
    ///
    /// Only the lease holder, only a worker the projection lists as online, whose heartbeat record
    /// has expired and whose latest event is older than `grace` (a worker announces itself before
    /// its first heartbeat lands). Returns 1 when it marked the worker.
    static let markOffline = RedisScript(
        StreamScripts.eventMaxLenFunction + """
            if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
            local state = redis.call('HMGET', KEYS[2], 'state', 'lastAt')
            if state[1] ~= 'online' or redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
            if tonumber(ARGV[4]) - (tonumber(state[2]) or 0) < tonumber(ARGV[5]) then return 0 end
            redis.call('HSET', KEYS[2], 'state', 'offline', 'offlineAt', ARGV[4])
            redis.call('XADD', KEYS[4], 'MAXLEN', '~', eventMaxLen(KEYS[4], ARGV[3]), '*', 'event', ARGV[2])
            return 1
            """)
}
