extension StreamScripts {
    /// Adds one chunk of jobs.
    ///
    /// `KEYS`: high, normal, low streams, delayed set.
    /// `ARGV`: prefix, idempotency window (ms), now (ms), batch count B, then B batch names, then per
    /// job five values (batch index 1…B, job id, priority name, due ms or empty, job JSON).
    ///
    /// Per job: `SET {p}:job:<id> <batch> NX PX ttl` — only a new id goes on, which is what makes
    /// enqueueing idempotent (also for duplicates within the chunk) — then `XADD` to its priority's
    /// stream, or `ZADD` to the delayed set when it has a due time. The marker lives for the window
    /// plus the job's delay, so a job delayed longer than the window is still known until it has
    /// had its window after becoming due. Per batch that got new jobs: `HINCRBY total` and extend
    /// (never shorten) the hash's expiry to the longest marker, in this same script, so
    /// `batchProgress` never counts a job that is not queued nor misses one that is. Publishes no
    /// event: the caller publishes one `batchEnqueued` per batch for its whole call. Returns
    /// `{added, count of batch 1, …, count of batch B}`.
    static let enqueue = RedisScript("""
        local prefix, window, now = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
        local batches = tonumber(ARGV[4])
        local streams = { high = KEYS[1], normal = KEYS[2], low = KEYS[3] }
        local counts, longest = {}, {}
        for b = 1, batches do counts[b] = 0; longest[b] = window end
        local added = 0
        for i = 5 + batches, #ARGV, 5 do
          local b = tonumber(ARGV[i])
          local priority, due, payload = ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
          local ttl = window
          if due ~= '' then ttl = window + math.max(0, tonumber(due) - now) end
          if redis.call('SET', prefix .. ':job:' .. ARGV[i + 1], ARGV[4 + b], 'NX', 'PX', ttl) then
            if due == '' then
              redis.call('XADD', streams[priority] or KEYS[2], '*', 'job', payload)
            else
              redis.call('ZADD', KEYS[4], due, priority .. '|' .. payload)
            end
            counts[b] = counts[b] + 1
            if ttl > longest[b] then longest[b] = ttl end
            added = added + 1
          end
        end
        local out = { added }
        for b = 1, batches do
          if counts[b] > 0 then
            local key = prefix .. ':batch:' .. ARGV[4 + b]
            redis.call('HINCRBY', key, 'total', counts[b])
            if redis.call('PTTL', key) < longest[b] then redis.call('PEXPIRE', key, longest[b]) end
          end
          out[#out + 1] = counts[b]
        end
        return out
        """)
}
