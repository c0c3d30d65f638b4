import DarkroomQueue
import Foundation

extension RedisStreamsQueue {
    /// Scans the streams (`XRANGE`, in pages) and the delayed set (`ZSCAN`) for the batch's jobs,
    /// then drops them with `StreamScripts.cancel`, which skips entries that are pending (a worker
    /// has them: they finish normally) or already gone. Costs a scan of the queue.
    public func cancel(batch: String) async throws -> Int {
        try await cancel { $0.batch == batch }
    }

    /// Like `cancel(batch:)`, for the given ids; unknown and pending ids are skipped.
    public func cancel(jobs: [JobID]) async throws -> Int {
        guard !jobs.isEmpty else { return 0 }
        let ids = Set(jobs)
        return try await cancel { ids.contains($0.id) }
    }

    /// A job found by the scan: where it is and its record.
    private struct Found {
        /// `s` + stream key + entry id, or `d` + delayed member.
        var kind: String
        var target: [UInt8]
        var entryID: String
        var job: Job
    }

    private func cancel(where matches: @escaping @Sendable (Job) -> Bool) async throws -> Int {
        try await redis {
            var found: [Found] = []
            // The delayed set first: a job promoted into a stream while we scan is then still seen
            // in the stream (promotion only moves jobs from the set to the streams, never back).
            try await self.scanDelayed { member, job in
                if matches(job) { found.append(Found(kind: "d", target: member, entryID: "", job: job)) }
            }
            for lane in try await StreamLane.plain + self.capabilityLanes() {
                let stream = self.keys.stream(lane)
                try await self.scanStream(stream) { entry in
                    guard entry.hasJobField, case .job(let job) = Job.decode(entry.payload), matches(job) else { return }
                    found.append(Found(kind: "s", target: Array(stream.utf8), entryID: entry.id, job: job))
                }
            }
            return try await self.drop(found)
        }
    }

    /// Runs the cancel script over `found` in chunks; returns how many were dropped.
    private func drop(_ found: [Found]) async throws -> Int {
        let now = clock.now()
        var dropped = 0
        var start = 0
        while start < found.count {
            let end = min(start + 500, found.count)
            var arguments = ScriptArguments([RedisQueueKeys.group, keyPrefix])
            arguments.append(configuration.eventRetention)
            arguments.append(Self.milliseconds(idempotencyWindow))
            for item in found[start..<end] {
                arguments.append(item.kind)
                arguments.append(item.target)
                arguments.append(item.entryID)
                arguments.append(item.job.batch)
                arguments.append(
                    try Self.json(
                        JobEvent.cancelled(
                            job: item.job.id, batch: item.job.batch, attempt: item.job.attempt,
                            source: item.job.source, chain: item.job.chain, metadata: item.job.metadata, at: now)))
            }
            let reply = try await eval(StreamScripts.cancel, keys: [keys.events, keys.delayed], arguments: arguments)
            dropped += try StreamReplies.integer(reply, "cancel")
            start = end
        }
        return dropped
    }

    /// Calls `visit` for every entry of `stream`, oldest first, reading 1,000 at a time.
    func scanStream(_ stream: String, _ visit: (StreamEntry) throws -> Void) async throws {
        var start = "-"
        while true {
            let reply = try await client.command(["XRANGE", stream, start, "+", "COUNT", "1000"])
            let page = try StreamReplies.entries(reply)
            for entry in page { try visit(entry) }
            guard page.count == 1000, let last = page.last else { return }
            start = "(" + last.id
        }
    }

    /// Calls `visit` for every job in the delayed set (`ZSCAN`; a member may come twice, which the
    /// cancel script's `ZREM` makes harmless).
    private func scanDelayed(_ visit: ([UInt8], Job) -> Void) async throws {
        var cursor = "0"
        repeat {
            let reply = try await client.command(["ZSCAN", keys.delayed, cursor, "COUNT", "1000"])
            guard let parts = reply.array, parts.count == 2, let next = parts[0].string, let flat = parts[1].array else {
                throw RedisError.protocolError("ZSCAN answered \(reply)")
            }
            var index = 0
            while index + 1 < flat.count {
                if let member = flat[index].bytes, let job = Self.delayedJob(member) { visit(member, job) }
                index += 2
            }
            cursor = next
        } while cursor != "0"
    }

    /// The job in a delayed member `<lane token>|<job JSON>`.
    static func delayedJob(_ member: [UInt8]) -> Job? {
        guard let bar = member.firstIndex(of: UInt8(ascii: "|")),
            case .job(let job) = Job.decode(Data(member[(bar + 1)...]))
        else { return nil }
        return job
    }
}

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
    static let cancel = RedisScript(
        StreamScripts.countInBatchFunction + StreamScripts.eventMaxLenFunction + """
            local group, prefix, ttl = ARGV[1], ARGV[2], ARGV[4]
            local maxlen = eventMaxLen(KEYS[1], ARGV[3])
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
                  countInBatch(key, 'cancelled', 1, ttl)
                end
                dropped = dropped + 1
              end
            end
            return dropped
            """)
}
