import DarkroomQueue

/// Queue sizes and batch counters.
extension RedisStreamsQueue {
    public func counts() async throws -> QueueCounts {
        let reply = try await redis {
            try await self.eval(
                StreamScripts.counts, keys: self.keys.streams + [self.keys.delayed, self.keys.dead, self.keys.lanes],
                arguments: ScriptArguments([RedisQueueKeys.group, self.keyPrefix]))
        }
        guard let items = reply.array, items.count == 11 else {
            throw Self.queueError(.protocolError("the counts script answered \(reply)"))
        }
        let values = items.prefix(8).compactMap(\.integer).map(Int.init)
        guard values.count == 8 else { throw Self.queueError(.protocolError("the counts script answered \(reply)")) }
        var ready: [JobPriority: Int] = [:]
        var oldestReady: [JobPriority: Timestamp] = [:]
        for (index, priority) in JobPriority.allCases.sorted().enumerated() {
            ready[priority] = max(values[index * 2] - values[index * 2 + 1], 0)
            if let id = items[8 + index].string, let milliseconds = StreamID.milliseconds(id) {
                oldestReady[priority] = Timestamp(millisecondsSince1970: milliseconds)
            }
        }
        return QueueCounts(
            ready: ready, delayed: values[6], pending: values[1] + values[3] + values[5],
            deadLettered: values[7], oldestReady: oldestReady)
    }

    public func batchProgress(_ batch: String) async throws -> BatchProgress? {
        let reply = try await redis { try await self.client.command(["HGETALL", self.keys.batch(batch)]) }
        guard let flat = reply.array, !flat.isEmpty else { return nil }
        var fields: [String: Int] = [:]
        var index = 0
        while index + 1 < flat.count {
            if let name = flat[index].string, let value = flat[index + 1].integer { fields[name] = Int(clamping: value) }
            index += 2
        }
        return BatchProgress(
            total: fields["total"] ?? 0, succeeded: fields["succeeded"] ?? 0, failed: fields["failed"] ?? 0,
            dead: fields["dead"] ?? 0, cancelled: fields["cancelled"] ?? 0)
    }

    /// The batch hash's `enqueuedAt` and `endedAt`, stamped from Redis's clock by the scripts that
    /// count (`StreamScripts.batchClockFunction`). Nil for a batch recorded before they were.
    public func batchTimes(_ batch: String) async throws -> BatchTimes? {
        let reply = try await redis { try await self.client.command(["HMGET", self.keys.batch(batch), "enqueuedAt", "endedAt"]) }
        guard let fields = reply.array, fields.count == 2, let enqueued = fields[0].string.flatMap(Int64.init) else { return nil }
        return BatchTimes(
            enqueuedAt: Timestamp(millisecondsSince1970: enqueued),
            endedAt: fields[1].string.flatMap(Int64.init).map(Timestamp.init(millisecondsSince1970:)))
    }
}

extension StreamScripts {
    /// A consistent snapshot of the queue's sizes.
    ///
    /// `KEYS`: high, normal, low streams, delayed set, dead stream, lane set. `ARGV`: group, prefix.
    /// Returns `{len, pending}` per priority, summed over its plain stream and its capability lanes
    /// (a stream holds exactly its ready and pending entries, since finished ones are deleted),
    /// then the delayed and dead sizes, then per priority the id of the oldest ready entry over
    /// those streams ('' when none): a stream's first entry after the group's last-delivered-id.
    static let counts = RedisScript(
        """
        local function oldestReady(stream)
          local ok, groups = pcall(redis.call, 'XINFO', 'GROUPS', stream)
          if not ok then return nil end
          for _, group in ipairs(groups) do
            local fields = {}
            for k = 1, #group, 2 do fields[group[k]] = group[k + 1] end
            if fields['name'] == ARGV[1] then
              local next = redis.call('XRANGE', stream, '(' .. fields['last-delivered-id'], '+', 'COUNT', 1)
              if next[1] then return next[1][1] end
            end
          end
          return nil
        end
        local function older(a, b)
          if not a then return b end
          if not b then return a end
          local am, as = string.match(a, '^(%d+)-(%d+)$')
          local bm, bs = string.match(b, '^(%d+)-(%d+)$')
          if tonumber(am) ~= tonumber(bm) then
            if tonumber(am) < tonumber(bm) then return a else return b end
          end
          if tonumber(as) <= tonumber(bs) then return a else return b end
        end
        local names = { 'high', 'normal', 'low' }
        local streams = { { KEYS[1] }, { KEYS[2] }, { KEYS[3] } }
        for _, token in ipairs(redis.call('SMEMBERS', KEYS[6])) do
          for i = 1, 3 do
            if string.sub(token, 1, #names[i] + 1) == names[i] .. '/' then
              table.insert(streams[i], ARGV[2] .. ':jobs:' .. token)
            end
          end
        end
        local out, oldest = {}, {}
        for i = 1, 3 do
          local length, pending, first = 0, 0, nil
          for _, stream in ipairs(streams[i]) do
            length = length + redis.call('XLEN', stream)
            local ok, summary = pcall(redis.call, 'XPENDING', stream, ARGV[1])
            if ok then pending = pending + summary[1] end
            first = older(first, oldestReady(stream))
          end
          out[#out + 1] = length
          out[#out + 1] = pending
          oldest[i] = first or ''
        end
        out[#out + 1] = redis.call('ZCARD', KEYS[4])
        out[#out + 1] = redis.call('XLEN', KEYS[5])
        for i = 1, 3 do out[#out + 1] = oldest[i] end
        return out
        """)
}
