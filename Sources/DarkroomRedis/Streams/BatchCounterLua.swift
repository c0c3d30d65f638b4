extension StreamScripts {
    /// Lua put in front of the scripts that write a batch's times: `batchClock()`, Redis's own
    /// time in milliseconds as an integer string. The batch hash's `enqueuedAt` (set once, by the
    /// first enqueue that adds a job) and `endedAt` (each terminal count) come from this one clock,
    /// so a batch's duration does not depend on the clocks of the hosts that enqueue and work.
    /// (`TIME` before a write is allowed since Redis 5 replicates a script's effects.)
    static let batchClockFunction = """
        local function batchClock()
          local now = redis.call('TIME')
          return string.format('%d', tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000))
        end

        """

    /// Lua put in front of the scripts that change a batch's counts outside a job's own finish
    /// (cancel, retry of dead letters): `countInBatch(key, field, delta, ttl)` adds `delta` to
    /// `field` of the batch hash `key`, stamps `endedAt` when a job ends (a positive delta), and
    /// keeps the hash alive at least `ttl` ms more (an expiry is extended, never shortened), so
    /// both scripts update a batch the same way. Includes `batchClockFunction`.
    static let countInBatchFunction =
        batchClockFunction + """
            local function countInBatch(key, field, delta, ttl)
              redis.call('HINCRBY', key, field, delta)
              if delta > 0 then redis.call('HSET', key, 'endedAt', batchClock()) end
              if redis.call('PTTL', key) < tonumber(ttl) then redis.call('PEXPIRE', key, ttl) end
            end

            """
}
