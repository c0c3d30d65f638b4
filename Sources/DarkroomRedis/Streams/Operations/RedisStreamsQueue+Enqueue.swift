import DarkroomQueue
import Foundation

extension RedisStreamsQueue {
    public func enqueue(_ jobs: [Job]) async throws -> Int {
        try await enqueue(jobs, progress: nil)
    }

    /// Adds jobs with one `StreamScripts.enqueue` call per chunk of `enqueueChunk` jobs, pipelined
    /// `enqueueChunksPerPipeline` chunks at a time, calling `progress` with the jobs sent so far
    /// after each pipeline. Every job is validated before anything is sent, so a bad job adds
    /// nothing. Records are written by `JobJSONWriter` (the same bytes as `Job.jsonData()`,
    /// several times faster).
    ///
    /// Each chunk's script counts its new jobs into their batches' `total` atomically with queueing
    /// them (so `batchProgress` is always exact); the chunks report how many jobs each batch got,
    /// and once every chunk is in, one `batchEnqueued` per batch with new jobs is published with
    /// the sum — one event per batch per call, however big the call. So a worker may finish a job
    /// before its batch's `batchEnqueued` appears in the event stream. If Redis fails midway, the
    /// chunks before the failure are queued and counted in `batchProgress` but not announced:
    /// enqueueing is idempotent, so repeat the call (it announces only the jobs it adds).
    public func enqueue(_ jobs: [Job], progress: (@Sendable (Int) -> Void)?) async throws -> Int {
        try await enqueueReport(jobs, progress: progress).added
    }

    /// `enqueue(_:progress:)`, with where each skipped job is: each chunk's script reads the
    /// marker of a job it skips (the batch the id was first enqueued into) in the same atomic step.
    public func enqueueReport(_ jobs: [Job], progress: (@Sendable (Int) -> Void)?) async throws -> EnqueueReport {
        for job in jobs {
            if let problem = job.problem {
                throw JobQueueError(.invalidArgument, "job \(job.id): \(problem); nothing was enqueued")
            }
        }
        guard !jobs.isEmpty else { return EnqueueReport() }
        let now = clock.now()
        let streamKeys = keys.streams + [keys.delayed]
        // Chunks go out in groups: while Redis runs one group's scripts, the next group is
        // encoded, so the client's and Redis's work overlap. Groups are sent one after the other,
        // so jobs are queued in the order given.
        let groupSize = Self.enqueueChunk * Self.enqueueChunksPerPipeline
        var inFlight: (task: Task<[RedisReply], any Error>, batches: [[String]], sent: Int)?
        var tally = BatchTally()
        var start = 0
        while start < jobs.count {
            let end = min(start + groupSize, jobs.count)
            var calls: [ScriptArguments] = []
            var batches: [[String]] = []
            var chunkStart = start
            do {
                while chunkStart < end {
                    let chunkEnd = min(chunkStart + Self.enqueueChunk, end)
                    let (arguments, names) = try enqueueArguments(jobs[chunkStart..<chunkEnd], now: now)
                    calls.append(arguments)
                    batches.append(names)
                    chunkStart = chunkEnd
                }
            } catch {
                _ = try? await inFlight?.task.value  // never leave a send running unobserved
                throw error
            }
            if let previous = inFlight {
                try tally.add(await previous.task.value, batches: previous.batches)
                progress?(previous.sent)
            }
            let group = calls
            inFlight = (
                Task { try await self.redis { try await self.evalPipelined(StreamScripts.enqueue, keys: streamKeys, calls: group) } },
                batches, end
            )
            start = end
        }
        if let last = inFlight {
            try tally.add(await last.task.value, batches: last.batches)
            progress?(last.sent)
        }
        try await announce(tally, at: now)
        return tally.report
    }

    /// The arguments of one enqueue script call (see `StreamScripts.enqueue`) and the chunk's
    /// batches in the order the script reports their counts. Jobs go in runs of neighbours that
    /// share a batch, lane and due time (one run for a whole chunk from one `enqueue` call, as a
    /// rule), so those three are sent once per run instead of once per job.
    private func enqueueArguments(_ chunk: ArraySlice<Job>, now: Timestamp) throws -> (ScriptArguments, [String]) {
        var batchIndex: [String: Int] = [:]
        var batches: [String] = []
        for job in chunk where batchIndex[job.batch] == nil {
            batches.append(job.batch)
            batchIndex[job.batch] = batches.count
        }
        var arguments = ScriptArguments()
        arguments.append(keyPrefix)
        arguments.append(Self.milliseconds(idempotencyWindow))
        arguments.append(now.millisecondsSince1970)
        arguments.append(batches.count)
        for batch in batches { arguments.append(batch) }
        var runStart = chunk.startIndex
        while runStart < chunk.endIndex {
            let first = chunk[runStart]
            let lane = StreamLane(first)
            let due = Self.dueArgument(first, now: now)
            var runEnd = chunk.index(after: runStart)
            while runEnd < chunk.endIndex, chunk[runEnd].batch == first.batch, Self.dueArgument(chunk[runEnd], now: now) == due,
                StreamLane(chunk[runEnd]) == lane
            {
                runEnd = chunk.index(after: runEnd)
            }
            arguments.append(runEnd - runStart)
            arguments.append(batchIndex[first.batch] ?? 1)
            arguments.append(lane.token)
            arguments.append(due)
            for job in chunk[runStart..<runEnd] {
                arguments.append(job.id.rawValue)
                arguments.append(JobJSONWriter.bytes(job))
            }
            runStart = runEnd
        }
        return (arguments, batches)
    }

    /// A job's due time in milliseconds as the script takes it, or "" when it is due now.
    private static func dueArgument(_ job: Job, now: Timestamp) -> String {
        guard let due = job.notBefore, due > now else { return "" }
        return String(due.millisecondsSince1970)
    }
}

extension StreamScripts {
    /// Adds one chunk of jobs.
    ///
    /// `KEYS`: high, normal, low streams, delayed set.
    /// `ARGV`: prefix, idempotency window (ms), now (ms), batch count B, then B batch names, then
    /// runs of jobs that share a batch, lane and due time: per run its job count N, batch index
    /// 1…B, lane token (`StreamLane`) and due ms or empty, then per job two values, its id and
    /// its JSON.
    ///
    /// Per job: `SET {p}:job:<id> <batch> NX PX ttl` — only a new id goes on, which is what makes
    /// enqueueing idempotent (also for duplicates within the chunk) — then `XADD` to its lane's
    /// stream (`laneStream`, which registers a capability lane on first use), or `ZADD` to the
    /// delayed set (member `<lane token>|<job JSON>`) when it has a due time. The marker lives for the window
    /// plus the job's delay, so a job delayed longer than the window is still known until it has
    /// had its window after becoming due; when the job ends, the coordinator's fold replaces the
    /// value by the job's finished record (`FinishedJobRecord`, which ends with the batch) and
    /// gives it a fresh window. A job whose marker exists is skipped, and its marker read:
    /// it names the batch that counts the job, which is this job's own batch (nothing to do: the
    /// job is counted there, with its outcome once it has one) or another one (reported, so the
    /// caller can name it). Each new job joins its batch's job index (`{p}:batchjobs:queued:<batch>`,
    /// scored by its place in the batch: the batch's `total` before the chunk plus its rank among
    /// the chunk's new jobs), which the coordinator's fold moves on. Per batch that got new jobs:
    /// its new index members in variadic `ZADD`s of up to 500 (one call per job cost Redis about
    /// as much as the marker's `SET`), `HINCRBY total`, `enqueuedAt` (`batchClock`) when the hash
    /// has none yet, and extend (never shorten) the hash's and the index's expiry to the longest
    /// marker, in this same script, so `batchProgress` never counts a job that is not queued nor
    /// misses one that is. Publishes no event: the caller publishes one `batchEnqueued` per batch
    /// for its whole call. Returns `{added, count of batch 1, …, count of batch B, skipped, then
    /// per other batch holding skipped jobs its name and how many}`.
    static let enqueue = RedisScript(
        laneStreamFunction + batchClockFunction + """
            local prefix, window, now = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
            local batches = tonumber(ARGV[4])
            local markerPrefix = prefix .. ':job:'
            -- Values per variadic ZADD: within `unpack`'s limit (Lua's stack, 8,000 values).
            local indexSlice = 1000
            local counts, longest, base, members = {}, {}, {}, {}
            for b = 1, batches do
              counts[b] = 0; longest[b] = window; members[b] = {}
              base[b] = tonumber(redis.call('HGET', prefix .. ':batch:' .. ARGV[4 + b], 'total')) or 0
            end
            local added, skipped, others, otherCounts = 0, 0, {}, {}
            local i = 5 + batches
            while i <= #ARGV do
              local n, b, lane, due = tonumber(ARGV[i]), tonumber(ARGV[i + 1]), ARGV[i + 2], ARGV[i + 3]
              local batch, batchMembers = ARGV[4 + b], members[b]
              -- The window as the caller wrote it, so an undelayed job costs no number-to-text
              -- conversion.
              local ttl, ttlText = window, ARGV[2]
              if due ~= '' then
                ttl = window + math.max(0, tonumber(due) - now)
                ttlText = ttl
              end
              local stream
              for j = i + 4, i + 2 + 2 * n, 2 do
                local id = ARGV[j]
                if redis.call('SET', markerPrefix .. id, batch, 'NX', 'PX', ttlText) then
                  if due == '' then
                    stream = stream or laneStream(prefix, 'workers', lane)
                    redis.call('XADD', stream, '*', 'job', ARGV[j + 1])
                  else
                    redis.call('ZADD', KEYS[4], due, lane .. '|' .. ARGV[j + 1])
                  end
                  counts[b] = counts[b] + 1
                  batchMembers[#batchMembers + 1] = base[b] + counts[b]
                  batchMembers[#batchMembers + 1] = id
                  if ttl > longest[b] then longest[b] = ttl end
                  added = added + 1
                else
                  skipped = skipped + 1
                  local holder = redis.call('GET', markerPrefix .. id)
                  -- A finished job's marker holds its record, whose last field is the batch.
                  if holder and holder:byte(1) == 1 then holder = holder:match('^[^|]*|[^|]*|[^|]*|[^|]*|[^|]*|[^|]*|[^|]*|(.*)$') end
                  if holder and holder ~= batch then
                    if not otherCounts[holder] then
                      others[#others + 1] = holder
                      otherCounts[holder] = 0
                    end
                    otherCounts[holder] = otherCounts[holder] + 1
                  end
                end
              end
              i = i + 4 + 2 * n
            end
            local out = { added }
            for b = 1, batches do
              if counts[b] > 0 then
                local key = prefix .. ':batch:' .. ARGV[4 + b]
                redis.call('HINCRBY', key, 'total', counts[b])
                redis.call('HSETNX', key, 'enqueuedAt', batchClock())
                if redis.call('PTTL', key) < longest[b] then redis.call('PEXPIRE', key, longest[b]) end
                local index = prefix .. ':batchjobs:queued:' .. ARGV[4 + b]
                local batchMembers = members[b]
                for first = 1, #batchMembers, indexSlice do
                  redis.call('ZADD', index, unpack(batchMembers, first, math.min(first + indexSlice - 1, #batchMembers)))
                end
                if redis.call('PTTL', index) < longest[b] then redis.call('PEXPIRE', index, longest[b]) end
              end
              out[#out + 1] = counts[b]
            end
            out[#out + 1] = skipped
            for _, holder in ipairs(others) do
              out[#out + 1] = holder
              out[#out + 1] = otherCounts[holder]
            end
            return out
            """)
}
