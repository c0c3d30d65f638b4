import DarkroomQueue
import Foundation

extension RedisStreamsQueue {
    /// A stream entry just read for a consumer, with the priority of its stream.
    struct ReadEntry: Sendable {
        var priority: JobPriority
        var entry: StreamEntry
    }

    /// One `StreamScripts.reserve` call (promote due delayed jobs, read in priority order); when
    /// nothing is ready and `wait` allows, `XREADGROUP … BLOCK` on a dedicated connection, at most
    /// `longestBlock` per call and no longer than until the next delayed job is due, repeated until
    /// the wait ends or the task is cancelled.
    public func reserve(consumer: String, max: Int, wait: Duration) async throws -> [JobDelivery] {
        try Self.check(consumer: consumer)
        guard max > 0 else { return [] }
        let clock = ContinuousClock()
        let deadline = clock.now + Swift.max(wait, .zero)
        return try await redis {
            while true {
                let (ready, nextDue) = try await self.readReady(consumer: consumer, max: max)
                if !ready.isEmpty {
                    let deliveries = try await self.deliver(ready, to: consumer, max: max)
                    if !deliveries.isEmpty { return deliveries }
                    continue  // only garbage or unknown versions: look again
                }
                let remaining = deadline - clock.now
                if Task.isCancelled || remaining < .milliseconds(1) { return [] }
                var block = Swift.min(remaining, Self.longestBlock)
                if let nextDue {
                    block = Swift.min(block, Swift.max(nextDue.duration(since: self.clock.now()), .milliseconds(1)))
                }
                let woken = try await self.blockingRead(consumer: consumer, max: max, block: block)
                if !woken.isEmpty {
                    let deliveries = try await self.deliver(woken, to: consumer, max: max)
                    if !deliveries.isEmpty { return deliveries }
                }
            }
        }
    }

    /// Promotes due delayed jobs and reads up to `max` new entries; also returns when the next
    /// delayed job is due.
    private func readReady(consumer: String, max: Int) async throws -> ([ReadEntry], Timestamp?) {
        var arguments = ScriptArguments([RedisQueueKeys.group, consumer])
        arguments.append(clock.now().millisecondsSince1970)
        arguments.append(max)
        arguments.append(Self.promotionLimit)
        let reply = try await eval(StreamScripts.reserve, keys: [keys.delayed] + keys.streams, arguments: arguments)
        guard let parts = reply.array, parts.count == 3, let list = parts[0].array ?? (parts[0].isNull ? [] : nil) else {
            throw RedisError.protocolError("the reserve script answered \(reply)")
        }
        let priorities = JobPriority.allCases.sorted()
        var entries: [ReadEntry] = []
        entries.reserveCapacity(list.count)
        for item in list {
            guard let triple = item.array, triple.count == 3, let index = triple[0].integer,
                (1...3).contains(index), let id = triple[1].string
            else {
                throw RedisError.protocolError("the reserve script returned the entry \(item)")
            }
            let entry = StreamEntry(id: id, fields: try StreamReplies.fields(triple[2]))
            entries.append(ReadEntry(priority: priorities[Int(index) - 1], entry: entry))
        }
        // Scores come back as decimal text; whole milliseconds print without an exponent. A score
        // someone else wrote may be anything a double holds: clamp before converting (Int64(1e300)
        // traps), Timestamp then clamps to its own range.
        let nextDue = parts[1].string.flatMap(Double.init).flatMap { score -> Timestamp? in
            guard score.isFinite else { return nil }
            return Timestamp(millisecondsSince1970: Int64(Swift.min(Swift.max(score, -9.0e18), 9.0e18)))
        }
        if parts[2].integer == 1 {
            // A group vanished (a stream deleted or flushed): recreate it so the next call reads it.
            try await ensureGroups()
        }
        return (entries, nextDue)
    }

    /// `XREADGROUP GROUP workers <consumer> COUNT max BLOCK ms STREAMS high normal low > > >`.
    /// Served as soon as an entry arrives in any stream. Entries that were already there when the
    /// call began are returned from every stream that has some, up to `max` each, so the caller
    /// may get more than `max` (see `deliver`).
    private func blockingRead(consumer: String, max: Int, block: Duration) async throws -> [ReadEntry] {
        let milliseconds = Self.milliseconds(block)
        let command =
            [
                "XREADGROUP", "GROUP", RedisQueueKeys.group, consumer, "COUNT", String(max),
                "BLOCK", String(milliseconds), "STREAMS",
            ] + keys.streams + [">", ">", ">"]
        let timeout = block + .seconds(10)
        let reply = try await client.withDedicatedConnection { connection throws(RedisError) in
            try connection.command(command, timeout: timeout)
        }
        var entries: [ReadEntry] = []
        for (key, list) in try StreamReplies.streams(reply) {
            guard let priority = keys.priority(ofStream: key) else { continue }
            entries += list.map { ReadEntry(priority: priority, entry: $0) }
        }
        // Stable, so each stream keeps its first-in-first-out order.
        return entries.enumerated().sorted { ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset) }.map(\.element)
    }

}

extension StreamScripts {
    /// Promotes due delayed jobs, then reads new entries for a consumer in priority order.
    ///
    /// `KEYS`: delayed set, high, normal, low streams.
    /// `ARGV`: group, consumer, now (ms), max, promotion limit.
    ///
    /// Moves up to `limit` members due by `now` from the delayed set to the tail of their stream
    /// (`XADD` then `ZREM`, in due order), then `XREADGROUP … COUNT n STREAMS <stream> >` on high,
    /// normal and low in turn until `max` entries are read. Returns `{entries, nextDue}`: entries as
    /// `{priority index 1–3, id, fields}`, the earliest remaining due time ('' when none), so a
    /// waiting reserve can wake when it comes, and 1 when some stream's group was missing (the
    /// caller recreates the groups; the other streams were still read).
    static let reserve = RedisScript(
        promoteDueFunction + """
            local group, consumer, now = ARGV[1], ARGV[2], ARGV[3]
            local want = tonumber(ARGV[4])
            promoteDue(now, ARGV[5])
            local out, missing = {}, 0
            for i = 2, 4 do
              if want <= 0 then break end
              -- pcall: a stream whose group is gone (NOGROUP) must not abort the script after the
              -- streams before it were read (their entries would be pending with nobody told).
              local ok, reply = pcall(redis.call, 'XREADGROUP', 'GROUP', group, consumer, 'COUNT', want, 'STREAMS', KEYS[i], '>')
              if not ok then
                missing = 1
              elseif reply then
                for _, entry in ipairs(reply[1][2]) do
                  out[#out + 1] = { i - 1, entry[1], entry[2] or {} }
                  want = want - 1
                end
              end
            end
            local nextDue = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
            return { out, nextDue[2] or '', missing }
            """)
}

extension StreamScripts {
    /// Lua put in front of the scripts that move due delayed jobs (`reserve`, `promoteDue`):
    /// `promoteDue(now, limit)` moves up to `limit` members of the delayed set (`KEYS[1]`) due by
    /// `now` to the tail of their stream (`KEYS[2]`–`KEYS[4]`: high, normal, low; a member without
    /// a known priority goes to normal), `XADD` then `ZREM`, in due order. Returns how many moved.
    static let promoteDueFunction = """
        local function promoteDue(now, limit)
          local streams = { high = KEYS[2], normal = KEYS[3], low = KEYS[4] }
          local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, limit)
          for _, member in ipairs(due) do
            local bar = string.find(member, '|', 1, true)
            local stream, payload = KEYS[3], member
            if bar then
              stream = streams[string.sub(member, 1, bar - 1)] or KEYS[3]
              payload = string.sub(member, bar + 1)
            end
            redis.call('XADD', stream, '*', 'job', payload)
            redis.call('ZREM', KEYS[1], member)
          end
          return #due
        end

        """

    /// Moves due delayed jobs into their streams, without reading any: the coordinator's
    /// housekeeping, so a backlog of due jobs is ready (and visible to a scaler) even when no
    /// worker is reserving. `KEYS`: delayed set, high, normal, low. `ARGV`: now (ms), limit.
    static let promoteDue = RedisScript(promoteDueFunction + "return promoteDue(ARGV[1], ARGV[2])")
}
