import DarkroomQueue

/// Queue sizes and batch counters.
extension RedisStreamsQueue {
    public func counts() async throws -> QueueCounts {
        let reply = try await redis {
            try await self.eval(
                StreamScripts.counts, keys: self.keys.streams + [self.keys.delayed, self.keys.dead],
                arguments: ScriptArguments([RedisQueueKeys.group]))
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
}

extension StreamScripts {
    /// A consistent snapshot of the queue's sizes.
    ///
    /// `KEYS`: high, normal, low streams, delayed set, dead stream. `ARGV`: group.
    /// Returns `{len, pending}` per stream (a stream holds exactly its ready and pending entries,
    /// since finished ones are deleted), then the delayed and dead sizes, then per stream the id of
    /// the oldest ready entry ('' when none): the first entry after the group's last-delivered-id.
    static let counts = RedisScript(
        """
        local out, oldest = {}, {}
        for i = 1, 3 do
          out[#out + 1] = redis.call('XLEN', KEYS[i])
          out[#out + 1] = redis.call('XPENDING', KEYS[i], ARGV[1])[1]
          local first = ''
          local ok, groups = pcall(redis.call, 'XINFO', 'GROUPS', KEYS[i])
          if ok then
            for _, group in ipairs(groups) do
              local fields = {}
              for k = 1, #group, 2 do fields[group[k]] = group[k + 1] end
              if fields['name'] == ARGV[1] then
                local next = redis.call('XRANGE', KEYS[i], '(' .. fields['last-delivered-id'], '+', 'COUNT', 1)
                if next[1] then first = next[1][1] end
              end
            end
          end
          oldest[i] = first
        end
        out[#out + 1] = redis.call('ZCARD', KEYS[4])
        out[#out + 1] = redis.call('XLEN', KEYS[5])
        for i = 1, 3 do out[#out + 1] = oldest[i] end
        return out
        """)
}
