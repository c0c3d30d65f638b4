import DarkroomQueue
import Foundation

/// The dead-letter stream `{p}:dead`.
extension RedisStreamsQueue {
    public func deadLetters(after: String?, limit: Int) async throws -> [DeadLetter] {
        if let after, !StreamID.isValid(after) {
            throw JobQueueError(.invalidCursor, "'\(after.prefix(40))' is not a dead-letter id of the Redis queue")
        }
        guard limit > 0 else { return [] }
        // `(id` is exclusive (Redis ≥ 6.2): the page starts after the entry, present or not.
        let start = after.map { "(" + $0 } ?? "-"
        let reply = try await redis { try await self.client.command(["XRANGE", self.keys.dead, start, "+", "COUNT", String(limit)]) }
        do { return try StreamReplies.entries(reply).map(Self.deadLetter) } catch { throw Self.queueError(error) }
    }

    /// Reads a dead-letter entry; fields it lacks get neutral values rather than failing the list.
    static func deadLetter(_ entry: StreamEntry) -> DeadLetter {
        let payload = Data(entry.value("job") ?? [])
        var job: Job?
        if case .job(let decoded) = Job.decode(payload) { job = decoded }
        let error =
            entry.value("error").flatMap { try? RecordJSON.decoder().decode(JobError.self, from: Data($0)) }
            ?? JobError(code: JobError.DriverCode.unknown.rawValue, message: "the dead letter has no readable error")
        let at =
            entry.value("at").flatMap { Timestamp(iso8601: String(decoding: $0, as: UTF8.self)) }
            ?? Timestamp(millisecondsSince1970: StreamID.milliseconds(entry.id) ?? 0)
        return DeadLetter(id: entry.id, at: at, job: job, payload: payload, error: error)
    }

    /// Requeues readable dead letters as fresh first attempts (`attempt` 1, no `notBefore`) with
    /// `StreamScripts.retryDeadLetters`, which removes each letter and queues its job atomically
    /// (a letter another call requeued first is skipped) and takes it off its batch's `dead` count.
    public func retryDeadLetters(ids: [String]?) async throws -> Int {
        try await redis {
            var letters: [StreamEntry] = []
            if let ids {
                for id in Set(ids) where StreamID.isValid(id) {
                    letters += try StreamReplies.entries(try await self.client.command(["XRANGE", self.keys.dead, id, id]))
                }
            } else {
                try await self.scanStream(self.keys.dead) { letters.append($0) }
            }
            var queued = 0
            var start = 0
            while start < letters.count {
                let end = min(start + 500, letters.count)
                var arguments = ScriptArguments([self.keyPrefix])
                arguments.append(Self.milliseconds(self.idempotencyWindow))
                var any = false
                for letter in letters[start..<end] {
                    guard var job = Self.deadLetter(letter).job else { continue }  // garbage stays
                    job.attempt = 1
                    job.notBefore = nil
                    arguments.append(letter.id)
                    arguments.append(StreamLane(job).token)
                    arguments.append(try Self.json(job))
                    arguments.append(job.batch)
                    arguments.append(job.id.rawValue)
                    any = true
                }
                if any {
                    let reply = try await self.eval(StreamScripts.retryDeadLetters, keys: [self.keys.dead], arguments: arguments)
                    queued += try StreamReplies.integer(reply, "retry dead letters")
                }
                start = end
            }
            return queued
        }
    }

    public func purgeDeadLetters() async throws -> Int {
        let reply = try await redis { try await self.eval(StreamScripts.purge, keys: [self.keys.dead], arguments: ScriptArguments()) }
        do { return try StreamReplies.integer(reply, "purge") } catch { throw Self.queueError(error) }
    }

}

extension StreamScripts {
    /// Queues dead letters again.
    ///
    /// `KEYS`: dead stream. `ARGV`: prefix, batch hash expiry (ms), then per letter five values:
    /// dead entry id, target lane token, job JSON (first attempt), batch, job id.
    /// A letter still in the dead stream (`XDEL` removes it) is `XADD`ed to its lane's stream
    /// (`laneStream`), its batch's `dead` count goes down by one (not below zero), and the job
    /// moves in its batch's job index from `dead` (the bucket of the place in its finished record,
    /// `BatchJobBuckets`) to `queued`, keeping its place (the
    /// coordinator's fold moves it on from there: a finished job keeps no projection hash that
    /// would say it was dead). Returns how many were queued.
    static let retryDeadLetters = RedisScript(
        StreamScripts.countInBatchFunction + laneStreamFunction + """
            local prefix, ttl = ARGV[1], ARGV[2]
            local queued = 0
            for i = 3, #ARGV, 5 do
              if redis.call('XDEL', KEYS[1], ARGV[i]) == 1 then
                redis.call('XADD', laneStream(prefix, 'workers', ARGV[i + 1]), '*', 'job', ARGV[i + 2])
                local key = prefix .. ':batch:' .. ARGV[i + 3]
                if tonumber(redis.call('HGET', key, 'dead') or '0') > 0 then
                  countInBatch(key, 'dead', -1, ttl)
                end
                -- In the bucket of the place its finished record names, or in the batch's one set
                -- of dead jobs from before the buckets.
                local dead = prefix .. ':batchjobs:dead:' .. ARGV[i + 3]
                local record = redis.call('GET', prefix .. ':job:' .. ARGV[i + 4])
                local at = record and record:byte(1) == 1 and tonumber(record:match('^[^|]*|[^|]*|[^|]*|[^|]*|[^|]*|[^|]*|([^|]*)|'))
                if at then
                  dead = prefix .. ':batchjobs:dead/' .. math.floor((at - 1) / \(BatchJobBuckets.size)) .. ':' .. ARGV[i + 3]
                end
                local place = redis.call('ZSCORE', dead, ARGV[i + 4])
                if place then
                  local index = prefix .. ':batchjobs:queued:' .. ARGV[i + 3]
                  redis.call('ZREM', dead, ARGV[i + 4])
                  redis.call('ZADD', index, place, ARGV[i + 4])
                  if redis.call('PTTL', index) < tonumber(ttl) then redis.call('PEXPIRE', index, ttl) end
                end
                queued = queued + 1
              end
            end
            return queued
            """)

    /// Deletes the dead stream. `KEYS`: dead stream. Returns how many letters it held.
    static let purge = RedisScript(
        """
        local count = redis.call('XLEN', KEYS[1])
        redis.call('DEL', KEYS[1])
        return count
        """)
}
