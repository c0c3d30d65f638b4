extension StreamScripts {
    /// Adds one chunk of jobs.
    ///
    /// `KEYS`: high, normal, low streams, delayed set, events stream.
    /// `ARGV`: prefix, idempotency window (ms), event MAXLEN, batch count B, then B triples
    /// (batch name, `batchEnqueued` JSON before the count, JSON after the count), then per job
    /// five values (batch index 1…B, job id, priority name, due ms or empty, job JSON).
    ///
    /// Per job: `SET {p}:job:<id> <batch> NX PX window` — only a new id goes on, which is what makes
    /// enqueueing idempotent (also for duplicates within the chunk) — then `XADD` to its priority's
    /// stream, or `ZADD` to the delayed set when it has a due time. Per batch that got new jobs:
    /// `HINCRBY total`, refresh the hash's expiry, and one `batchEnqueued` event with the count.
    /// Returns the number of new jobs.
    static let enqueue = RedisScript("""
        local prefix, window, maxlen = ARGV[1], ARGV[2], ARGV[3]
        local batches = tonumber(ARGV[4])
        local streams = { high = KEYS[1], normal = KEYS[2], low = KEYS[3] }
        local counts = {}
        for b = 1, batches do counts[b] = 0 end
        local added = 0
        for i = 5 + batches * 3, #ARGV, 5 do
          local b = tonumber(ARGV[i])
          local batch = ARGV[5 + (b - 1) * 3]
          if redis.call('SET', prefix .. ':job:' .. ARGV[i + 1], batch, 'NX', 'PX', window) then
            local priority, due, payload = ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
            if due == '' then
              redis.call('XADD', streams[priority] or KEYS[2], '*', 'job', payload)
            else
              redis.call('ZADD', KEYS[4], due, priority .. '|' .. payload)
            end
            counts[b] = counts[b] + 1
            added = added + 1
          end
        end
        for b = 1, batches do
          if counts[b] > 0 then
            local o = 5 + (b - 1) * 3
            local key = prefix .. ':batch:' .. ARGV[o]
            redis.call('HINCRBY', key, 'total', counts[b])
            redis.call('PEXPIRE', key, window)
            redis.call('XADD', KEYS[5], 'MAXLEN', '~', maxlen, '*', 'event', ARGV[o + 1] .. counts[b] .. ARGV[o + 2])
          end
        end
        return added
        """)
}
