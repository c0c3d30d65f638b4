extension StreamScripts {
    /// Finishes (or hands back) one pending entry — the single script behind `acknowledge`,
    /// `retry`, `deadLetter`, `release`, dead-lettering garbage, and `reclaimStale`'s dead letters.
    ///
    /// `KEYS`: the entry's stream, events stream, delayed set, dead stream, the job's batch hash.
    /// `ARGV`:
    /// 1. group, 2. entry id,
    /// 3. expected delivery count ('' = any), 4. consumer that must hold it ('' = any),
    /// 5. event JSON ('' = none), 6. event MAXLEN,
    /// 7. batch counter to increment ('' = none), 8. batch hash expiry (ms),
    /// 9. action: `ack` (just remove), `dead` (to the dead stream), `ready` (to the tail of the same
    ///    stream), `delay` (to the delayed set),
    /// 10. payload, 11. `given` (use ARGV 10) or `entry` (copy the entry's `job` field),
    /// 12. priority name (delayed member prefix), 13. due ms (`delay`),
    /// 14. dead letter's error JSON, 15. dead letter's time (ISO-8601).
    ///
    /// First `XPENDING stream group id id 1`: when the entry is not pending (already finished by
    /// another delivery), or not held by the required consumer, returns 0 and changes nothing.
    /// When its delivery count is not the expected one (it was reclaimed since the caller's
    /// delivery), returns minus the actual count, so the caller can re-encode the event with the
    /// right attempt and call again. Otherwise `XACK` + `XDEL` + the action + the event + the batch
    /// counter (only when the batch hash exists), atomically, and returns 1.
    static let finish = RedisScript("""
        local group, id = ARGV[1], ARGV[2]
        local pending = redis.call('XPENDING', KEYS[1], group, id, id, 1)[1]
        if not pending then return 0 end
        if ARGV[4] ~= '' and pending[2] ~= ARGV[4] then return 0 end
        if ARGV[3] ~= '' and pending[4] ~= tonumber(ARGV[3]) then return -pending[4] end
        local action, payload = ARGV[9], ARGV[10]
        if action ~= 'ack' and ARGV[11] == 'entry' then
          payload = ''
          local found = redis.call('XRANGE', KEYS[1], id, id)[1]
          if found and found[2] then
            local fields = found[2]
            for i = 1, #fields, 2 do
              if fields[i] == 'job' then payload = fields[i + 1] break end
            end
          end
        end
        redis.call('XACK', KEYS[1], group, id)
        redis.call('XDEL', KEYS[1], id)
        if action == 'dead' then
          redis.call('XADD', KEYS[4], '*', 'job', payload, 'error', ARGV[14], 'at', ARGV[15])
        elseif action == 'ready' then
          redis.call('XADD', KEYS[1], '*', 'job', payload)
        elseif action == 'delay' then
          redis.call('ZADD', KEYS[3], ARGV[13], ARGV[12] .. '|' .. payload)
        end
        if ARGV[5] ~= '' then
          redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[6], '*', 'event', ARGV[5])
        end
        if ARGV[7] ~= '' and redis.call('EXISTS', KEYS[5]) == 1 then
          redis.call('HINCRBY', KEYS[5], ARGV[7], 1)
          if redis.call('PTTL', KEYS[5]) < tonumber(ARGV[8]) then redis.call('PEXPIRE', KEYS[5], ARGV[8]) end
        end
        return 1
        """)

    /// Renews a lease: `XCLAIM stream group consumer 0 id JUSTID` resets the entry's idle time
    /// without incrementing its delivery count — only while `consumer` still holds the entry.
    ///
    /// `KEYS`: the stream. `ARGV`: group, entry id, consumer. Returns 1 when renewed, else 0.
    static let extendLease = RedisScript("""
        local pending = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1)[1]
        if not pending or pending[2] ~= ARGV[3] then return 0 end
        redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[3], 0, ARGV[2], 'JUSTID')
        return 1
        """)
}
