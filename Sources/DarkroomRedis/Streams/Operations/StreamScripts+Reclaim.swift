extension StreamScripts {
    /// One `XAUTOCLAIM` step over one stream, with each claimed entry's new delivery count.
    ///
    /// `KEYS`: the stream. `ARGV`: group, consumer, min idle (ms), start cursor, count.
    /// Claims up to `count` entries idle for at least `min idle` (their delivery counts go up by
    /// one and their idle times restart) and returns `{next cursor, {{id, delivery count, fields}…}}`.
    /// Deciding what to do with them (hand out, or dead-letter past `maxAttempts`) needs the job
    /// record, so the caller does it with `finish`, checking the count it was given here.
    static let reclaim = RedisScript("""
        local group = ARGV[1]
        local claimed = redis.call('XAUTOCLAIM', KEYS[1], group, ARGV[2], ARGV[3], ARGV[4], 'COUNT', ARGV[5])
        local out = {}
        for _, entry in ipairs(claimed[2]) do
          if entry[2] then
            local pending = redis.call('XPENDING', KEYS[1], group, entry[1], entry[1], 1)[1]
            out[#out + 1] = { entry[1], pending and pending[4] or 0, entry[2] }
          end
        end
        return { claimed[1], out }
        """)
}
