import DarkroomQueue
import Foundation

extension RedisStreamsQueue {
    /// A stream entry just read for a consumer, with the lane of its stream.
    struct ReadEntry: Sendable {
        var lane: StreamLane
        var entry: StreamEntry
    }

    /// One `StreamScripts.reserve` call (promote due delayed jobs, read the lanes `offering`
    /// honours in priority order); when
    /// nothing is ready and `wait` allows, `XREADGROUP … BLOCK` on a dedicated connection, at most
    /// `longestBlock` per call and no longer than until the next delayed job is due, repeated until
    /// the wait ends or the task is cancelled.
    public func reserve(consumer: String, max: Int, wait: Duration, offering: Set<String>) async throws -> [JobDelivery] {
        try Self.check(consumer: consumer)
        guard max > 0 else { return [] }
        let clock = ContinuousClock()
        let deadline = clock.now + Swift.max(wait, .zero)
        return try await redis {
            while true {
                let (ready, nextDue, lanes) = try await self.readReady(consumer: consumer, max: max, offering: offering)
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
                let woken = try await self.blockingRead(consumer: consumer, max: max, lanes: lanes, block: block)
                if !woken.isEmpty {
                    let deliveries = try await self.deliver(woken, to: consumer, max: max)
                    if !deliveries.isEmpty { return deliveries }
                }
            }
        }
    }

    /// Promotes due delayed jobs and reads up to `max` new entries from the lanes `offering`
    /// honours; also returns when the next delayed job is due, and the capability lanes it read
    /// (for the blocking read that may follow).
    private func readReady(consumer: String, max: Int, offering: Set<String>) async throws -> ([ReadEntry], Timestamp?, [StreamLane]) {
        var arguments = ScriptArguments([RedisQueueKeys.group, consumer])
        arguments.append(clock.now().millisecondsSince1970)
        arguments.append(max)
        arguments.append(Self.promotionLimit)
        arguments.append(keyPrefix)
        for name in offering.sorted() { arguments.append(name) }
        let reply = try await eval(StreamScripts.reserve, keys: [keys.delayed] + keys.streams + [keys.lanes], arguments: arguments)
        return try await readyEntries(reply)
    }

    /// Parses `reserveReady`'s answer `{entries, nextDue, missing, lanes}` (recreating the
    /// consumer groups when one was missing).
    func readyEntries(_ reply: RedisReply) async throws -> ([ReadEntry], Timestamp?, [StreamLane]) {
        guard let parts = reply.array, parts.count == 4, let list = parts[0].array ?? (parts[0].isNull ? [] : nil),
            let laneTokens = parts[3].array ?? (parts[3].isNull ? [] : nil)
        else {
            throw RedisError.protocolError("the reserve script answered \(reply)")
        }
        var entries: [ReadEntry] = []
        entries.reserveCapacity(list.count)
        for item in list {
            guard let triple = item.array, triple.count == 3, let lane = triple[0].string.flatMap({ StreamLane(token: $0) }),
                let id = triple[1].string
            else {
                throw RedisError.protocolError("the reserve script returned the entry \(item)")
            }
            let entry = StreamEntry(id: id, fields: try StreamReplies.fields(triple[2]))
            entries.append(ReadEntry(lane: lane, entry: entry))
        }
        let lanes = laneTokens.compactMap { $0.string.flatMap { StreamLane(token: $0) } }
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
        return (entries, nextDue, lanes)
    }

    /// `XREADGROUP GROUP workers <consumer> COUNT max BLOCK ms STREAMS high normal low <lanes> > > > …`.
    /// Served as soon as an entry arrives in any stream. Entries that were already there when the
    /// call began are returned from every stream that has some, up to `max` each, so the caller
    /// may get more than `max` (see `deliver`). A capability lane first used while this call
    /// blocks is read by the next call (within `longestBlock`).
    private func blockingRead(consumer: String, max: Int, lanes: [StreamLane], block: Duration) async throws -> [ReadEntry] {
        let milliseconds = Self.milliseconds(block)
        let streams = keys.streams + lanes.map(keys.stream)
        let command =
            [
                "XREADGROUP", "GROUP", RedisQueueKeys.group, consumer, "COUNT", String(max),
                "BLOCK", String(milliseconds), "STREAMS",
            ] + streams + Array(repeating: ">", count: streams.count)
        let timeout = block + .seconds(10)
        let reply = try await client.withDedicatedConnection { connection throws(RedisError) in
            try connection.command(command, timeout: timeout)
        }
        var entries: [ReadEntry] = []
        for (key, list) in try StreamReplies.streams(reply) {
            guard let lane = keys.lane(ofStream: key) else { continue }
            entries += list.map { ReadEntry(lane: lane, entry: $0) }
        }
        // Stable, so each stream keeps its first-in-first-out order.
        return entries.enumerated().sorted { ($0.element.lane, $0.offset) < ($1.element.lane, $1.offset) }.map(\.element)
    }

}

extension StreamScripts {
    /// Promotes due delayed jobs, then reads new entries for a consumer in priority order, from
    /// the lanes whose capabilities it offers.
    ///
    /// `KEYS`: delayed set, high, normal, low streams, the lane set `{p}:lanes`.
    /// `ARGV`: group, consumer, now (ms), max, promotion limit, prefix, then the capabilities the
    /// consumer offers (none: only the three plain streams are read, and the lane set is not).
    ///
    /// Moves up to `limit` members due by `now` from the delayed set to the tail of their lane's
    /// stream (`XADD` then `ZREM`, in due order). Then, per priority (high, normal, low), reads its
    /// plain stream and then each registered lane of that priority whose every capability is
    /// offered (by token), `XREADGROUP … COUNT n STREAMS <stream> >` in turn until `max` entries
    /// are read. Returns `{entries, nextDue, missing, lanes}`: entries as `{lane token, id,
    /// fields}`, the earliest remaining due time ('' when none), so a waiting reserve can wake
    /// when it comes, 1 when some stream's group was missing (the caller recreates the groups;
    /// the other streams were still read), and the tokens of the capability lanes it read.
    static let reserve = RedisScript(
        laneStreamFunction + promoteDueFunction + reserveReadyFunction + """
            local offered = {}
            for i = 7, #ARGV do offered[ARGV[i]] = true end
            return reserveReady({ KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5] }, ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5], ARGV[6], offered)
            """)

    /// Lua put in front of the scripts that reserve (`reserve`, `acknowledgeAndReserve`):
    /// `reserveReady(keys, group, consumer, now, want, promotionLimit, prefix, offered)` — `keys`
    /// the delayed set, high, normal, low streams and the lane set; `offered` a table of the
    /// capabilities offered (by name) — does what `reserve` describes and returns its answer.
    /// Needs `laneStreamFunction` and `promoteDueFunction` before it.
    static let reserveReadyFunction = """
        local function reserveReady(keys, group, consumer, now, want, promotionLimit, prefix, offered)
          promoteDue(keys[1], now, promotionLimit, prefix, group)
          local gated = { high = {}, normal = {}, low = {} }
          if next(offered) then
            for _, token in ipairs(redis.call('SMEMBERS', keys[5])) do
              local slash = string.find(token, '/', 1, true)
              local list = slash and gated[string.sub(token, 1, slash - 1)]
              if list then
                local honoured = true
                for name in string.gmatch(string.sub(token, slash + 1), '[^,]+') do
                  if not offered[name] then honoured = false break end
                end
                if honoured then list[#list + 1] = token end
              end
            end
          end
          local order, lanes = {}, {}
          for i, priority in ipairs({ 'high', 'normal', 'low' }) do
            order[#order + 1] = { priority, keys[i + 1] }
            table.sort(gated[priority])
            for _, token in ipairs(gated[priority]) do
              order[#order + 1] = { token, prefix .. ':jobs:' .. token }
              lanes[#lanes + 1] = token
            end
          end
          local out, missing = {}, 0
          for _, lane in ipairs(order) do
            if want <= 0 then break end
            -- pcall: a stream whose group is gone (NOGROUP) must not abort the script after the
            -- streams before it were read (their entries would be pending with nobody told).
            local ok, reply = pcall(redis.call, 'XREADGROUP', 'GROUP', group, consumer, 'COUNT', want, 'STREAMS', lane[2], '>')
            if not ok then
              missing = 1
            elseif reply then
              for _, entry in ipairs(reply[1][2]) do
                out[#out + 1] = { lane[1], entry[1], entry[2] or {} }
                want = want - 1
              end
            end
          end
          local nextDue = redis.call('ZRANGE', keys[1], 0, 0, 'WITHSCORES')
          return { out, nextDue[2] or '', missing, lanes }
        end

        """
}

extension StreamScripts {
    /// Lua put in front of the scripts that move due delayed jobs (`reserve`, `promoteDue`):
    /// `promoteDue(delayed, now, limit, prefix, group)` moves up to `limit` members of the delayed set
    /// (key `delayed`) due by `now` to the tail of their lane's stream (`laneStream`: the member's
    /// prefix before `|`; a member without one goes to normal), `XADD` then `ZREM`, in due order.
    /// Needs `laneStreamFunction` before it. Returns how many moved.
    static let promoteDueFunction = """
        local function promoteDue(delayed, now, limit, prefix, group)
          local due = redis.call('ZRANGEBYSCORE', delayed, '-inf', now, 'LIMIT', 0, limit)
          for _, member in ipairs(due) do
            local bar = string.find(member, '|', 1, true)
            local token, payload = 'normal', member
            if bar then
              token = string.sub(member, 1, bar - 1)
              payload = string.sub(member, bar + 1)
            end
            redis.call('XADD', laneStream(prefix, group, token), '*', 'job', payload)
            redis.call('ZREM', delayed, member)
          end
          return #due
        end

        """

    /// Moves due delayed jobs into their streams, without reading any: the coordinator's
    /// housekeeping, so a backlog of due jobs is ready (and visible to a scaler) even when no
    /// worker is reserving. `KEYS`: delayed set, high, normal, low. `ARGV`: now (ms), limit,
    /// prefix, group.
    static let promoteDue = RedisScript(laneStreamFunction + promoteDueFunction + "return promoteDue(KEYS[1], ARGV[1], ARGV[2], ARGV[3], ARGV[4])")
}
