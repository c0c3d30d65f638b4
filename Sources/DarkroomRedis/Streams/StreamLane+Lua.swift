extension StreamScripts {
    /// Lua put in front of the scripts that queue jobs (`enqueue`, `reserve`, `promoteDue`,
    /// `retryDeadLetters`): `laneStream(prefix, group, token)` is the stream of the lane `token`
    /// (`StreamLane.token`). A capability lane (`normal/output-name`) is registered in `{p}:lanes`
    /// and its consumer group created (`XGROUP CREATE … MKSTREAM`; an existing group is fine) the
    /// first time a script uses it, so it exists before its first entry can be read; a token that
    /// names no priority goes to normal, as a delayed member without one always has.
    static let laneStreamFunction = """
        local laneKeys = {}
        local function laneStream(prefix, group, token)
          local key = laneKeys[token]
          if key then return key end
          if string.find(token, '/', 1, true) then
            key = prefix .. ':jobs:' .. token
            redis.call('SADD', prefix .. ':lanes', token)
            pcall(redis.call, 'XGROUP', 'CREATE', key, group, '0', 'MKSTREAM')
          elseif token == 'high' or token == 'low' then
            key = prefix .. ':jobs:' .. token
          else
            key = prefix .. ':jobs:normal'
          end
          laneKeys[token] = key
          return key
        end

        """
}

extension RedisStreamsQueue {
    /// The capability lanes registered in `{p}:lanes`, in reading order (tokens this build cannot
    /// read are skipped).
    func capabilityLanes() async throws -> [StreamLane] {
        let reply = try await client.command(["SMEMBERS", keys.lanes])
        return (reply.array ?? []).compactMap { $0.string.flatMap { StreamLane(token: $0) } }.sorted()
    }
}
