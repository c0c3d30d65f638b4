extension StreamScripts {
    /// A consistent snapshot of the queue's sizes.
    ///
    /// `KEYS`: high, normal, low streams, delayed set, dead stream. `ARGV`: group.
    /// Returns `{len, pending}` per stream (a stream holds exactly its ready and pending entries,
    /// since finished ones are deleted), then the delayed and dead sizes.
    static let counts = RedisScript("""
        local out = {}
        for i = 1, 3 do
          out[#out + 1] = redis.call('XLEN', KEYS[i])
          out[#out + 1] = redis.call('XPENDING', KEYS[i], ARGV[1])[1]
        end
        out[#out + 1] = redis.call('ZCARD', KEYS[4])
        out[#out + 1] = redis.call('XLEN', KEYS[5])
        return out
        """)

    /// Queues dead letters again.
    ///
    /// `KEYS`: dead stream. `ARGV`: prefix, batch hash expiry (ms), then per letter four values:
    /// dead entry id, target stream, job JSON (first attempt), batch.
    /// A letter still in the dead stream (`XDEL` removes it) is `XADD`ed to its stream and its
    /// batch's `dead` count goes down by one (not below zero). Returns how many were queued.
    static let retryDeadLetters = RedisScript("""
        local prefix, ttl = ARGV[1], ARGV[2]
        local queued = 0
        for i = 3, #ARGV, 4 do
          if redis.call('XDEL', KEYS[1], ARGV[i]) == 1 then
            redis.call('XADD', ARGV[i + 1], '*', 'job', ARGV[i + 2])
            local key = prefix .. ':batch:' .. ARGV[i + 3]
            if tonumber(redis.call('HGET', key, 'dead') or '0') > 0 then
              redis.call('HINCRBY', key, 'dead', -1)
              if redis.call('PTTL', key) < tonumber(ttl) then redis.call('PEXPIRE', key, ttl) end
            end
            queued = queued + 1
          end
        end
        return queued
        """)

    /// Deletes the dead stream. `KEYS`: dead stream. Returns how many letters it held.
    static let purge = RedisScript("""
        local count = redis.call('XLEN', KEYS[1])
        redis.call('DEL', KEYS[1])
        return count
        """)

    /// Deletes a consumer from the group of each stream where it holds no pending entry, so the
    /// group's consumer list does not grow with every worker that ever ran (`host:pid` names).
    /// A consumer that still holds entries is kept: `XGROUP DELCONSUMER` would drop them from the
    /// pending list, and they would never be reclaimed.
    ///
    /// `KEYS`: the job streams. `ARGV`: group, consumer. Returns how many groups it left.
    static let forgetConsumer = RedisScript("""
        local left = 0
        for i = 1, #KEYS do
          local ok, pending = pcall(redis.call, 'XPENDING', KEYS[i], ARGV[1], '-', '+', 1, ARGV[2])
          if ok and not pending[1] then
            redis.call('XGROUP', 'DELCONSUMER', KEYS[i], ARGV[1], ARGV[2])
            left = left + 1
          end
        end
        return left
        """)
}
