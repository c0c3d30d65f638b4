extension StreamScripts {
    /// Group commit: acknowledges many pending entries in one call, each exactly as `finish` with
    /// action `ack` would — checked, acknowledged, published and counted on its own — so one call
    /// costs one script run instead of one per job.
    ///
    /// `KEYS`: high, normal, low streams, events stream.
    /// `ARGV`: 1. group, 2. event MAXLEN, 3. batch hash expiry (ms), 4. key prefix, then per entry
    /// six values: stream index (1 high, 2 normal, 3 low), entry id, expected delivery count
    /// ('' = any), event JSON, batch counter (`succeeded` or `failed`), batch name.
    ///
    /// Per entry, in order: `XPENDING stream group id id 1`; not pending (or its stream or group is
    /// gone) → 0, nothing changes; delivered a different number of times than expected (reclaimed
    /// since) → minus the actual count, nothing changes; otherwise `XACK` + `XDEL` + `XADD` of its event, counted in its
    /// batch (when the batch hash exists) → 1. The whole call is one script, so each entry's
    /// acknowledgement, event and count still happen together; the counters and expiries of
    /// several entries of one batch are written once at the end, still inside the script.
    /// Returns the codes, one per entry.
    static let acknowledgeMany = RedisScript("""
        local group, maxlen, window, prefix = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
        local codes, counts, order = {}, {}, {}
        for i = 5, #ARGV, 6 do
          local stream, id = KEYS[tonumber(ARGV[i])], ARGV[i + 1]
          local code = 0
          if stream then
            -- pcall: an entry whose stream or group is gone (NOGROUP) is not pending. Raising
            -- here would abort the script after earlier entries were acknowledged and published
            -- but before their batch counts below were written (scripts are not rolled back).
            local ok, found = pcall(redis.call, 'XPENDING', stream, group, id, id, 1)
            local pending = ok and found[1]
            if pending then
              if ARGV[i + 2] ~= '' and pending[4] ~= tonumber(ARGV[i + 2]) then
                code = -pending[4]
              else
                redis.call('XACK', stream, group, id)
                redis.call('XDEL', stream, id)
                redis.call('XADD', KEYS[4], 'MAXLEN', '~', maxlen, '*', 'event', ARGV[i + 3])
                local key = prefix .. ':batch:' .. ARGV[i + 5]
                local batch = counts[key]
                if not batch then
                  batch = {}
                  counts[key] = batch
                  order[#order + 1] = key
                end
                batch[ARGV[i + 4]] = (batch[ARGV[i + 4]] or 0) + 1
                code = 1
              end
            end
          end
          codes[#codes + 1] = code
        end
        for _, key in ipairs(order) do
          if redis.call('EXISTS', key) == 1 then
            for counter, n in pairs(counts[key]) do redis.call('HINCRBY', key, counter, n) end
            if redis.call('PTTL', key) < tonumber(window) then redis.call('PEXPIRE', key, window) end
          end
        end
        return codes
        """)
}
