import DarkroomRedis

/// The outbox's Lua: each change of a delivery is one script, so a sender that dies between two
/// steps leaves a state another sender continues from. Keys of other deliveries (the next in
/// order, the oldest dropped by a cap) are built from the root passed in ARGV[1], as every key
/// here lives on one Redis.
extension RedisWebhookOutbox {
    /// `finish(root, id, state, error, now)`: takes a delivery out of the pending sets and its
    /// order list, makes the next of its order due, and records it delivered (kept 7 days) or
    /// failed (listed in `failed`).
    static let finishFunction = """
        local function finish(root, id, state, err, now)
          local d = root .. 'd:' .. id
          local order = redis.call('HGET', d, 'orderKey')
          local endpoint = redis.call('HGET', d, 'endpoint')
          if not order then return 0 end
          redis.call('ZREM', root .. 'due', id)
          redis.call('ZREM', root .. 'pending', id)
          redis.call('ZREM', root .. 'pending:' .. endpoint, id)
          local owner = redis.call('HGET', d, 'owner')
          if owner then redis.call('ZREM', root .. 'pending-key:' .. owner, id) end
          local list = root .. 'order:' .. order
          redis.call('LREM', list, 1, id)
          local head = redis.call('LINDEX', list, 0)
          if head then redis.call('ZADD', root .. 'due', now, head) end
          redis.call('HSET', d, 'state', state)
          redis.call('HDEL', d, 'nextAttemptAt')
          if state == 'delivered' then
            redis.call('EXPIRE', d, 604800)
          else
            redis.call('HSET', d, 'lastError', err)
            redis.call('ZADD', root .. 'failed', now, id)
            redis.call('PERSIST', d)
          end
          return 1
        end
        """

    /// Adds a delivery unless its id is known. ARGV: root, id, endpoint, event, orderKey, body,
    /// now, per-endpoint cap, total cap, owner (an API key id, `-` for none), per-key cap.
    /// Returns {1 added or 0 known, dropped by the key's cap, by the endpoint's, by the total}.
    ///
    /// Each cap fails the oldest pending deliveries it holds (the new one last), so a key or an
    /// endpoint whose receiver is down fills only its own share.
    static let addScript = RedisScript(
        finishFunction + """

            local root, id, endpoint, now, owner = ARGV[1], ARGV[2], ARGV[3], ARGV[7], ARGV[10]
            local d = root .. 'd:' .. id
            if redis.call('EXISTS', d) == 1 then return {0, 0, 0, 0} end
            redis.call('HSET', d, 'id', id, 'endpoint', endpoint, 'event', ARGV[4], 'orderKey', ARGV[5], 'body', ARGV[6],
              'attempt', 0, 'createdAt', now, 'nextAttemptAt', now, 'state', 'pending', 'owner', owner)
            redis.call('ZADD', root .. 'pending', now, id)
            redis.call('ZADD', root .. 'pending:' .. endpoint, now, id)
            redis.call('ZADD', root .. 'pending-key:' .. owner, now, id)
            local list = root .. 'order:' .. ARGV[5]
            redis.call('RPUSH', list, id)
            if redis.call('LINDEX', list, 0) == id then redis.call('ZADD', root .. 'due', now, id) end
            local whose = owner == '-' and 'of work enqueued without an API key' or ('of API key ' .. owner)
            local caps = {
              {root .. 'pending-key:' .. owner, tonumber(ARGV[11]), 'key', whose},
              {root .. 'pending:' .. endpoint, tonumber(ARGV[8]), 'endpoint', 'of endpoint ' .. endpoint},
              {root .. 'pending', tonumber(ARGV[9]), 'total', 'in total'}}
            local dropped = {1, 0, 0, 0}
            for index, cap in ipairs(caps) do
              while redis.call('ZCARD', cap[1]) > cap[2] do
                local oldest = redis.call('ZRANGE', cap[1], 0, 0)[1]
                finish(root, oldest, 'failed', 'dropped: over the pending-delivery cap ' .. cap[4] .. ' (' .. cap[2] .. ')', now)
                -- A member whose record is gone would otherwise be counted for ever.
                redis.call('ZREM', cap[1], oldest)
                redis.call('INCR', root .. 'dropped')
                redis.call('HINCRBY', root .. 'dropped-by', cap[3], 1)
                dropped[index + 1] = dropped[index + 1] + 1
              end
            end
            return dropped
            """)

    /// `claim(root, now, max, claimMs)`: claims up to `max` due deliveries for `claimMs`: each
    /// one's attempt goes up and its due time moves past the claim, so a sender that dies
    /// mid-request leaves it to be sent again. Returns [id, endpoint, event, body, attempt,
    /// createdAt]… flattened.
    static let claimFunction = """
        local function claim(root, now, max, claimMs)
          local out = {}
          if max <= 0 then return out end
          local ids = redis.call('ZRANGEBYSCORE', root .. 'due', '-inf', now, 'LIMIT', 0, max)
          for _, id in ipairs(ids) do
            local d = root .. 'd:' .. id
            redis.call('ZADD', root .. 'due', now + claimMs, id)
            local attempt = redis.call('HINCRBY', d, 'attempt', 1)
            local fields = redis.call('HMGET', d, 'endpoint', 'event', 'body', 'createdAt')
            table.insert(out, id)
            table.insert(out, fields[1] or '')
            table.insert(out, fields[2] or '')
            table.insert(out, fields[3] or '')
            table.insert(out, tostring(attempt))
            table.insert(out, fields[4] or '0')
          end
          return out
        end
        """

    /// ARGV: root, now, max, claim ms.
    static let claimScript = RedisScript(
        claimFunction + "\nreturn claim(ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]))")

    /// Records a delivery delivered and claims up to ARGV[4] more in the same call (one round trip
    /// where there were two). ARGV: root, id, now, max, claim ms.
    static let deliverAndClaimScript = RedisScript(
        finishFunction + "\n" + claimFunction + """

            finish(ARGV[1], ARGV[2], 'delivered', '', ARGV[3])
            return claim(ARGV[1], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]))
            """)

    /// ARGV: root, id, state ('delivered' or 'failed'), error, now.
    static let finishScript = RedisScript(finishFunction + "\nreturn finish(ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])")

    /// Schedules a pending delivery's next attempt. ARGV: root, id, next (ms), error.
    static let retryScript = RedisScript(
        """
        local d = ARGV[1] .. 'd:' .. ARGV[2]
        if redis.call('HGET', d, 'state') ~= 'pending' then return 0 end
        redis.call('HSET', d, 'nextAttemptAt', ARGV[3], 'lastError', ARGV[4])
        redis.call('ZADD', ARGV[1] .. 'due', 'XX', ARGV[3], ARGV[2])
        return 1
        """)

    /// Sends a failed or delivered delivery again: pending, attempts and window reset, at the end
    /// of its order. ARGV: root, id, now. Returns 1, or 0 for an unknown or pending one.
    static let redeliverScript = RedisScript(
        """
        local root, id, now = ARGV[1], ARGV[2], ARGV[3]
        local d = root .. 'd:' .. id
        local state = redis.call('HGET', d, 'state')
        if state ~= 'failed' and state ~= 'delivered' then return 0 end
        local order, endpoint = redis.call('HGET', d, 'orderKey'), redis.call('HGET', d, 'endpoint')
        local owner = redis.call('HGET', d, 'owner')
        if owner then redis.call('ZADD', root .. 'pending-key:' .. owner, now, id) end
        redis.call('PERSIST', d)
        redis.call('HSET', d, 'state', 'pending', 'attempt', 0, 'createdAt', now, 'nextAttemptAt', now)
        redis.call('ZREM', root .. 'failed', id)
        redis.call('ZADD', root .. 'pending', now, id)
        redis.call('ZADD', root .. 'pending:' .. endpoint, now, id)
        local list = root .. 'order:' .. order
        redis.call('RPUSH', list, id)
        if redis.call('LINDEX', list, 0) == id then redis.call('ZADD', root .. 'due', now, id) end
        return 1
        """)
}
