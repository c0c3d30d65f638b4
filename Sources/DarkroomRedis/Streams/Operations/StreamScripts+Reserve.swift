extension StreamScripts {
    /// Promotes due delayed jobs, then reads new entries for a consumer in priority order.
    ///
    /// `KEYS`: delayed set, high, normal, low streams.
    /// `ARGV`: group, consumer, now (ms), max, promotion limit.
    ///
    /// Moves up to `limit` members due by `now` from the delayed set to the tail of their stream
    /// (`XADD` then `ZREM`, in due order), then `XREADGROUP … COUNT n STREAMS <stream> >` on high,
    /// normal and low in turn until `max` entries are read. Returns `{entries, nextDue}`: entries as
    /// `{priority index 1–3, id, fields}`, the earliest remaining due time ('' when none), so a
    /// waiting reserve can wake when it comes, and 1 when some stream's group was missing (the
    /// caller recreates the groups; the other streams were still read).
    static let reserve = RedisScript("""
        local group, consumer, now = ARGV[1], ARGV[2], ARGV[3]
        local want = tonumber(ARGV[4])
        local streams = { high = KEYS[2], normal = KEYS[3], low = KEYS[4] }
        local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, ARGV[5])
        for _, member in ipairs(due) do
          local bar = string.find(member, '|', 1, true)
          local stream, payload = KEYS[3], member
          if bar then
            stream = streams[string.sub(member, 1, bar - 1)] or KEYS[3]
            payload = string.sub(member, bar + 1)
          end
          redis.call('XADD', stream, '*', 'job', payload)
          redis.call('ZREM', KEYS[1], member)
        end
        local out, missing = {}, 0
        for i = 2, 4 do
          if want <= 0 then break end
          -- pcall: a stream whose group is gone (NOGROUP) must not abort the script after the
          -- streams before it were read (their entries would be pending with nobody told).
          local ok, reply = pcall(redis.call, 'XREADGROUP', 'GROUP', group, consumer, 'COUNT', want, 'STREAMS', KEYS[i], '>')
          if not ok then
            missing = 1
          elseif reply then
            for _, entry in ipairs(reply[1][2]) do
              out[#out + 1] = { i - 1, entry[1], entry[2] or {} }
              want = want - 1
            end
          end
        end
        local nextDue = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
        return { out, nextDue[2] or '', missing }
        """)
}
