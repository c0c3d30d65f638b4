import DarkroomFleetStatus

extension CoordinatorScripts {
    /// Folds a page of events into the projections and moves the checkpoint, atomically.
    ///
    /// `KEYS`: lease, coordinator hash. `ARGV`: 1. owner, 2. expected checkpoint ('' = none yet),
    /// 3. key prefix, 4. projection ttl (ms), 5. registration ttl (ms), 6. now (ms), 7. the page's
    /// last stream id, then per event eight values: its stream id (only for a job's last event in
    /// the page, else ''), type (`retrying` for a `failed` that will be retried), job ('' = none),
    /// batch ('' = none), worker ('' = none), time (ms), the event JSON (only for a job's last
    /// event in the page when it does not end the job, and for failures, else ''), and the head of
    /// the job's finished record (`FinishedJobRecord.head`, only for a job's last event in the page
    /// when it ends the job, else ''). Most values repeat from event to event or are empty, which
    /// is cheap for Lua: every argument becomes a Lua string.
    ///
    /// Returns `{1}` when applied, `{0}` when `owner` does not hold the lease, `{-1, checkpoint}`
    /// when the stored checkpoint is not the expected one; nothing is written in the last two.
    ///
    /// Per event naming a worker, its hash `{p}:workerstate:<name>` gets `state` (`offline` from
    /// a `workerOffline`, else `online` unless the event is older than the worker's `offlineAt`,
    /// so late-read events of a worker that went offline do not revive it), `lastAt` (its latest
    /// event time) and, for terminal events, `done` and `errors`.
    ///
    /// While a job runs or waits for a retry, its hash `{p}:jobstate:<id>` keeps the latest event,
    /// its stream id, `state` (`running` or `retrying`), the worker, the start time and count. When
    /// the job's last event in the page ends it, the job's marker `{p}:job:<id>` is overwritten by
    /// its finished record (`FinishedJobRecord`: the head the caller sent, then the terminal
    /// event's stream id, the start count, the duration from the latest start to the end, and the
    /// batch), expiring a window after the fold, and the hash is deleted: a finished job keeps its
    /// marker and nothing else. A job's `failed` (retried or not) and `dead` events append
    /// `{attempt, code, message, at}` (`at` in ms) to its hash's `errors` field, a JSON array
    /// oldest first holding the newest `JobErrorHistory.capacity`; older ones are dropped and
    /// counted in `errorsDropped`. A job that never failed has neither field; a finished job that
    /// did keeps a hash of those two fields only. A page's errors of a job are gathered in event
    /// order and written once. A job whose state changed
    /// moves, once per page, in its batch's job index from `{p}:batchjobs:<state before>:<batch>`
    /// (`queued` for a job not seen before, and where the dead-letter queue's retry puts a job
    /// back) to the set of its state now, keeping its score (its
    /// place in the batch); for an ended state (`succeeded`, `failed`, `dead`, `cancelled`) that
    /// set is the bucket `{p}:batchjobs:<state>/<bucket>:<batch>` of its place (`BatchJobBuckets`),
    /// and the place goes into the job's finished record. A job the enqueue script did not index
    /// (enqueued by an older version, or its index expired) stays out of the index. A job counts as running in its batch
    /// (`running`) and its worker (`{p}:workerjobs:<name>`) from `started` until the next event; a
    /// restart by another worker moves it. A terminal event with a known start adds its
    /// duration to the batch's histogram (`{p}:batchtimes:<name>`, buckets 10 % wide: bucket 0
    /// holds [0, 1) ms, bucket b ≥ 1 holds [1.1^(b-1), 1.1^b) ms). Per touched batch, `queued`
    /// (total − ended − running, at least 0), `p50Ms` and `p95Ms` (the bucket's geometric middle)
    /// are rewritten at the end, and the batch is listed in `{p}:batches` (name → last update, the
    /// newest 1000). Terminal events are counted per second of their time in `{p}:throughput`
    /// (second → count; seconds older than 10 minutes are dropped), and per minute of their time
    /// in `{p}:minute:<unix minute>` (`n` → jobs ended, `b<bucket>` → how many of them had a known
    /// start, in the batches' duration buckets, `f:<code>` / `r:<code>` → final / retried failures
    /// with that code; each hash expires 2 hours after its last write). `failed` and `dead` events
    /// are pushed onto `{p}:failures`, the newest 50 kept.
    static let apply = RedisScript(
        """
        local owner, expected, prefix = ARGV[1], ARGV[2], ARGV[3]
        local ttl, regttl, now = tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6]
        if redis.call('GET', KEYS[1]) ~= owner then return {0} end
        local current = redis.call('HGET', KEYS[2], 'checkpoint') or ''
        if current ~= expected then return {-1, current} end

        -- What a page changes per batch and per worker is summed here and written once at the
        -- end: a page holds thousands of events but only a few batches and workers.
        local touched, order, running, times = {}, {}, {}, {}
        local function touch(batch)
          if batch ~= '' and not touched[batch] then
            touched[batch] = true
            order[#order + 1] = batch
            running[batch] = 0
            times[batch] = {}
          end
        end
        local workers, workerOrder = {}, {}
        local function workerOf(name)
          local w = workers[name]
          if not w then
            local stored = redis.call('HMGET', prefix .. ':workerstate:' .. name, 'offlineAt', 'lastAt')
            w = { done = 0, errors = 0, offlineAt = tonumber(stored[1]), lastAt = tonumber(stored[2]) or 0, hasJobs = false }
            workers[name] = w
            workerOrder[#workerOrder + 1] = name
          end
          return w
        end
        local errorCap = \(JobErrorHistory.capacity)
        local logOfStep = math.log(1.1)
        local function bucketOf(ms)
          if ms < 1 then return 0 end
          return math.floor(math.log(ms) / logOfStep) + 1
        end

        -- A job's hash is read once per page and written once at its end: a page usually holds
        -- a job's start and its end.
        local jobs, jobOrder = {}, {}
        local function jobOf(job)
          local j = jobs[job]
          if not j then
            local before = redis.call('HMGET', prefix .. ':jobstate:' .. job, 'state', 'worker', 'startedAt', 'starts', 'durationMs', 'errors')
            j = { state = before[1], worker = before[2], startedAt = tonumber(before[3]), starts = tonumber(before[4]) or 0,
              hadDuration = before[5] ~= false, startsChanged = false, existed = before[1] ~= false, hadErrors = before[6] ~= false }
            j.initialWorker = (before[1] == 'running' and before[2] and before[2] ~= '') and before[2] or nil
            j.initialState = before[1] or 'queued'
            jobs[job] = j
            jobOrder[#jobOrder + 1] = job
          end
          return j
        end

        local ended, seconds, failures = {}, {}, 0
        local minutes, minuteOrder = {}, {}
        local function minuteAt(at)
          local minute = math.floor(at / 60000)
          local m = minutes[minute]
          if not m then
            m = { n = 0, b = {}, codes = {} }
            minutes[minute] = m
            minuteOrder[#minuteOrder + 1] = minute
          end
          return m
        end
        for i = 8, #ARGV, 8 do
          local id, kind, job, batch, worker = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
          local at, json, summary = tonumber(ARGV[i + 5]), ARGV[i + 6], ARGV[i + 7]
          local retry = kind == 'retrying'
          if retry then kind = 'failed' end
          local w = nil
          if worker ~= '' then w = workerOf(worker) end
          touch(batch)
          if job ~= '' then
            local j = jobOf(job)
            if batch ~= '' then j.batch = batch end
            if j.state == 'running' and batch ~= '' then running[batch] = running[batch] - 1 end
            if kind == 'started' then
              j.state, j.worker, j.startedAt, j.starts, j.startsChanged = 'running', worker, at, j.starts + 1, true
              j.durationMs = nil
              if batch ~= '' then running[batch] = running[batch] + 1 end
              if w then w.hasJobs = true end
            else
              local state = kind
              if retry then state = 'retrying' end
              j.durationMs = nil
              local timed = nil
              if state ~= 'retrying' and j.state == 'running' and j.startedAt then
                local ms = math.max(at - j.startedAt, 0)
                j.durationMs = ms
                timed = bucketOf(ms)
                if batch ~= '' then
                  local bucket = bucketOf(ms)
                  times[batch][bucket] = (times[batch][bucket] or 0) + 1
                end
              end
              j.state, j.worker = state, worker
              if kind == 'failed' or kind == 'dead' then
                redis.call('LPUSH', prefix .. ':failures', json)
                failures = failures + 1
                -- Failures per code in the minute: `f:` final, `r:` retried.
                local ok, record = pcall(cjson.decode, json)
                local code = ok and type(record) == 'table' and type(record.error) == 'table' and record.error.code
                if type(code) ~= 'string' or code == '' then code = 'unknown' end
                local field = (retry and 'r:' or 'f:') .. code
                -- The job's error history, in event order; written once at the end of the page.
                local message = ok and type(record) == 'table' and type(record.error) == 'table' and record.error.message
                local attempt = ok and type(record) == 'table' and tonumber(record.attempt)
                j.errors = j.errors or {}
                j.errors[#j.errors + 1] = { attempt = attempt or 1, code = code, message = type(message) == 'string' and message or '', at = at }
                local codes = minuteAt(at).codes
                codes[field] = (codes[field] or 0) + 1
              end
              if state ~= 'retrying' then
                local second = math.floor(at / 1000)
                if not ended[second] then ended[second] = 0 seconds[#seconds + 1] = second end
                ended[second] = ended[second] + 1
                local m = minuteAt(at)
                m.n = m.n + 1
                if timed then m.b[timed] = (m.b[timed] or 0) + 1 end
              end
              if w then
                if state ~= 'retrying' then w.done = w.done + 1 end
                if kind == 'failed' or kind == 'dead' then w.errors = w.errors + 1 end
              end
            end
            -- The arguments carry the record only for a job's last event in the page.
            if json ~= '' then j.event = json end
            if id ~= '' then j.id = id end
            j.summary = summary
          end
          if w then
            -- An event from before the worker went offline (read late) must not bring it back.
            if kind == 'workerOffline' then
              w.state = 'offline'
              w.offlineAt = at
            elseif not w.offlineAt or at > w.offlineAt then
              w.state = 'online'
            end
            if at > w.lastAt then w.lastAt = at end
          end
        end
        local last = ARGV[7]

        -- Only a job that failed pays for the list: the stored errors, then this page's, the newest
        -- `errorCap` of them; with the count of all dropped so far.
        local function storedErrors(jobKey, fresh)
          local list = {}
          local stored = redis.call('HMGET', jobKey, 'errors', 'errorsDropped')
          if stored[1] then
            local ok, old = pcall(cjson.decode, stored[1])
            if ok and type(old) == 'table' then list = old end
          end
          local dropped = tonumber(stored[2]) or 0
          for _, e in ipairs(fresh or {}) do list[#list + 1] = e end
          local over = #list - errorCap
          if over > 0 then
            local kept = {}
            for k = over + 1, #list do kept[#kept + 1] = list[k] end
            list = kept
            dropped = dropped + over
          end
          return list, dropped
        end
        -- Ended jobs' index sets are split by place into sets of at most `bucketSize`, which Redis
        -- keeps as listpacks (its `zset-max-listpack-entries`, 128 by default).
        local bucketSize = \(BatchJobBuckets.size)
        local bucketed = { succeeded = true, failed = true, dead = true, cancelled = true }
        local function keepAlive(key)
          if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, ttl) end
        end
        for _, job in ipairs(jobOrder) do
          local j = jobs[job]
          local jobKey = prefix .. ':jobstate:' .. job
          local finalWorker = (j.state == 'running' and j.worker ~= '') and j.worker or nil
          if j.initialWorker and j.initialWorker ~= finalWorker then
            redis.call('SREM', prefix .. ':workerjobs:' .. j.initialWorker, job)
          end
          if finalWorker and finalWorker ~= j.initialWorker then
            redis.call('SADD', prefix .. ':workerjobs:' .. finalWorker, job)
          end
          if j.batch and j.state ~= j.initialState then
            -- A job's state before is never an ended one in a bucket: an ended job keeps no hash
            -- (only one from before the buckets, whose set has no bucket either).
            local from = prefix .. ':batchjobs:' .. j.initialState .. ':' .. j.batch
            local place = redis.call('ZSCORE', from, job)
            if not place and j.initialState ~= 'queued' then
              -- Retried from the dead-letter queue, which put it back in `queued`.
              from = prefix .. ':batchjobs:queued:' .. j.batch
              place = redis.call('ZSCORE', from, job)
            end
            if place then
              local to = prefix .. ':batchjobs:' .. j.state .. ':' .. j.batch
              if bucketed[j.state] then
                to = prefix .. ':batchjobs:' .. j.state .. '/' .. math.floor((tonumber(place) - 1) / bucketSize) .. ':' .. j.batch
              end
              redis.call('ZREM', from, job)
              redis.call('ZADD', to, place, job)
              keepAlive(to)
              j.place = place
            end
          end
          if j.summary ~= '' then
            -- Ended: the compact record goes into the job's marker (a fresh window), and the hash
            -- goes, unless the job has errors to keep (then it keeps only those).
            redis.call('SET', prefix .. ':job:' .. job,
              j.summary .. '|' .. j.id .. '|' .. j.starts .. '|' .. (j.durationMs or '') .. '|' .. (j.place or '') .. '|' .. (j.batch or ''),
              'PX', ttl)
            local list, dropped = nil, 0
            if j.errors or j.hadErrors then
              list, dropped = storedErrors(jobKey, j.errors)
            end
            if j.existed then redis.call('DEL', jobKey) end
            if list then
              if dropped > 0 then
                redis.call('HSET', jobKey, 'errors', cjson.encode(list), 'errorsDropped', dropped)
              else
                redis.call('HSET', jobKey, 'errors', cjson.encode(list))
              end
              redis.call('PEXPIRE', jobKey, ttl)
            end
          else
            -- Still going: the hash keeps its latest event for the look-ups and the next page.
            local fields = { 'state', j.state, 'worker', j.worker or '', 'event', j.event or '', 'id', j.id }
            if j.startsChanged then
              fields[#fields + 1] = 'startedAt'
              fields[#fields + 1] = j.startedAt
              fields[#fields + 1] = 'starts'
              fields[#fields + 1] = j.starts
            end
            if j.durationMs then
              fields[#fields + 1] = 'durationMs'
              fields[#fields + 1] = j.durationMs
            elseif j.hadDuration then
              redis.call('HDEL', jobKey, 'durationMs')
            end
            if j.errors then
              local list, dropped = storedErrors(jobKey, j.errors)
              if dropped > 0 then redis.call('HSET', jobKey, 'errorsDropped', dropped) end
              fields[#fields + 1] = 'errors'
              fields[#fields + 1] = cjson.encode(list)
            end
            redis.call('HSET', jobKey, unpack(fields))
            redis.call('PEXPIRE', jobKey, ttl)
          end
        end

        for _, name in ipairs(workerOrder) do
          local w = workers[name]
          local workerKey = prefix .. ':workerstate:' .. name
          redis.call('HSET', workerKey, 'lastAt', w.lastAt)
          if w.state then redis.call('HSET', workerKey, 'state', w.state) end
          if w.offlineAt then redis.call('HSET', workerKey, 'offlineAt', w.offlineAt) end
          if w.done > 0 then redis.call('HINCRBY', workerKey, 'done', w.done) end
          if w.errors > 0 then redis.call('HINCRBY', workerKey, 'errors', w.errors) end
          redis.call('PEXPIRE', workerKey, ttl)
          if w.hasJobs then redis.call('PEXPIRE', prefix .. ':workerjobs:' .. name, ttl) end
          redis.call('ZADD', prefix .. ':workerstates', w.lastAt, name)
        end

        for _, batch in ipairs(order) do
          local batchKey = prefix .. ':batch:' .. batch
          if running[batch] ~= 0 then redis.call('HINCRBY', batchKey, 'running', running[batch]) end
          local timesKey = prefix .. ':batchtimes:' .. batch
          local timed = false
          for bucket, n in pairs(times[batch]) do
            redis.call('HINCRBY', timesKey, bucket, n)
            timed = true
          end
          if timed then redis.call('PEXPIRE', timesKey, ttl) end
          local f = redis.call('HMGET', batchKey, 'total', 'succeeded', 'failed', 'dead', 'cancelled', 'running')
          local n = {}
          for k = 1, 6 do n[k] = tonumber(f[k]) or 0 end
          local queued = math.max(n[1] - n[2] - n[3] - n[4] - n[5] - n[6], 0)
          redis.call('HSET', batchKey, 'queued', queued)
          local times = redis.call('HGETALL', prefix .. ':batchtimes:' .. batch)
          local buckets, count = {}, 0
          for k = 1, #times, 2 do
            local b, c = tonumber(times[k]), tonumber(times[k + 1])
            buckets[#buckets + 1] = { b, c }
            count = count + c
          end
          if count > 0 then
            table.sort(buckets, function(x, y) return x[1] < y[1] end)
            local function quantile(q)
              local rank, seen = math.ceil(q * count), 0
              for _, bucket in ipairs(buckets) do
                seen = seen + bucket[2]
                if seen >= rank then
                  if bucket[1] == 0 then return 0.5 end
                  return math.floor(math.exp((bucket[1] - 0.5) * logOfStep) * 1000 + 0.5) / 1000
                end
              end
              return 0
            end
            redis.call('HSET', batchKey, 'p50Ms', tostring(quantile(0.5)), 'p95Ms', tostring(quantile(0.95)))
          end
          keepAlive(batchKey)
          redis.call('ZADD', prefix .. ':batches', now, batch)
        end
        local listed = redis.call('ZCARD', prefix .. ':batches')
        if listed > 1000 then redis.call('ZREMRANGEBYRANK', prefix .. ':batches', 0, listed - 1001) end

        if failures > 0 then redis.call('LTRIM', prefix .. ':failures', 0, 49) end

        -- The per-minute series the dashboard's chart opens with: a hash per minute that
        -- expires two hours after its last write, so the series bounds itself.
        for _, minute in ipairs(minuteOrder) do
          local m = minutes[minute]
          local minuteKey = prefix .. ':minute:' .. minute
          redis.call('HINCRBY', minuteKey, 'n', m.n)
          for bucket, n in pairs(m.b) do redis.call('HINCRBY', minuteKey, 'b' .. bucket, n) end
          -- A minute's hash stops growing at 250 fields: a new code past that (a plugin inventing
          -- codes) counts as `other`.
          for field, n in pairs(m.codes) do
            if redis.call('HEXISTS', minuteKey, field) == 0 and redis.call('HLEN', minuteKey) >= 250 then
              field = field:sub(1, 2) .. 'other'
            end
            redis.call('HINCRBY', minuteKey, field, n)
          end
          redis.call('PEXPIRE', minuteKey, 7200000)
        end

        local throughput = prefix .. ':throughput'
        for _, second in ipairs(seconds) do redis.call('HINCRBY', throughput, second, ended[second]) end
        if #seconds > 0 then
          redis.call('PEXPIRE', throughput, 3600000)
          if redis.call('HLEN', throughput) > 900 then
            local oldest = math.floor(tonumber(now) / 1000) - 600
            local fields = redis.call('HKEYS', throughput)
            for _, field in ipairs(fields) do
              if tonumber(field) < oldest then redis.call('HDEL', throughput, field) end
            end
          end
        end

        redis.call('HSET', KEYS[2], 'checkpoint', last, 'updatedAt', now, 'owner', owner)
        redis.call('PEXPIRE', KEYS[2], regttl)
        return {1}
        """)
}
