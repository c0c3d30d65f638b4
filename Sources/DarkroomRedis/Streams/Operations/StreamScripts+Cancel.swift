extension StreamScripts {
    /// Drops ready and delayed jobs found by a scan, one `cancelled` event each.
    ///
    /// `KEYS`: events stream, delayed set. `ARGV`: group, prefix, event MAXLEN, batch hash expiry
    /// (ms), then per job five values: `s` (stream entry) or `d` (delayed member), the stream key
    /// or the member, the entry id (or ''), the batch, the `cancelled` event JSON.
    ///
    /// A stream entry is dropped only when it is not pending (`XPENDING` empty: never delivered, as
    /// finished entries are deleted) and `XDEL` removes it; a delayed job only when `ZREM` removes
    /// it. So a job a worker took meanwhile, or one another cancel got first, is left alone and
    /// gets no second terminal event. Returns how many were dropped.
    static let cancel = RedisScript("""
        local group, prefix, maxlen, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
        local dropped = 0
        for i = 5, #ARGV, 5 do
          local removed = false
          if ARGV[i] == 's' then
            local stream, id = ARGV[i + 1], ARGV[i + 2]
            if not redis.call('XPENDING', stream, group, id, id, 1)[1] then
              removed = redis.call('XDEL', stream, id) == 1
            end
          else
            removed = redis.call('ZREM', KEYS[2], ARGV[i + 1]) == 1
          end
          if removed then
            redis.call('XADD', KEYS[1], 'MAXLEN', '~', maxlen, '*', 'event', ARGV[i + 4])
            local key = prefix .. ':batch:' .. ARGV[i + 3]
            if redis.call('EXISTS', key) == 1 then
              redis.call('HINCRBY', key, 'cancelled', 1)
              if redis.call('PTTL', key) < tonumber(ttl) then redis.call('PEXPIRE', key, ttl) end
            end
            dropped = dropped + 1
          end
        end
        return dropped
        """)
}
