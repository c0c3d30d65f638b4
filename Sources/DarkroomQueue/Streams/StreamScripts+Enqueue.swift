extension StreamScripts {
    /// Adds one chunk of jobs.
    ///
    /// `KEYS`: high, normal, low streams, delayed set.
    /// `ARGV`: prefix, idempotency window (ms), batch count B, then B batch names, then per job
    /// five values (batch index 1…B, job id, priority name, due ms or empty, job JSON).
    ///
    /// Per job: `SET {p}:job:<id> <batch> NX PX window` — only a new id goes on, which is what makes
    /// enqueueing idempotent (also for duplicates within the chunk) — then `XADD` to its priority's
    /// stream, or `ZADD` to the delayed set when it has a due time. Per batch that got new jobs:
    /// `HINCRBY total` and refresh the hash's expiry, in this same script, so `batchProgress`
    /// never counts a job that is not queued nor misses one that is. Publishes no event: the
    /// caller publishes one `batchEnqueued` per batch for its whole call. Returns
    /// `{added, count of batch 1, …, count of batch B}`.
    static let enqueue = RedisScript("""
        local prefix, window = ARGV[1], ARGV[2]
        local batches = tonumber(ARGV[3])
        local streams = { high = KEYS[1], normal = KEYS[2], low = KEYS[3] }
        local counts = {}
        for b = 1, batches do counts[b] = 0 end
        local added = 0
        for i = 4 + batches, #ARGV, 5 do
          local b = tonumber(ARGV[i])
          if redis.call('SET', prefix .. ':job:' .. ARGV[i + 1], ARGV[3 + b], 'NX', 'PX', window) then
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
        local out = { added }
        for b = 1, batches do
          if counts[b] > 0 then
            local key = prefix .. ':batch:' .. ARGV[3 + b]
            redis.call('HINCRBY', key, 'total', counts[b])
            redis.call('PEXPIRE', key, window)
          end
          out[#out + 1] = counts[b]
        end
        return out
        """)
}
