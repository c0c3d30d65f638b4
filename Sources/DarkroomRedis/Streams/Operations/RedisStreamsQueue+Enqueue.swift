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
        for job in jobs {
            if let problem = job.problem {
                throw JobQueueError(.invalidArgument, "job \(job.id): \(problem); nothing was enqueued")
            }
        }
        guard !jobs.isEmpty else { return 0 }
        let now = Timestamp.now()
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
            inFlight = (Task { try await self.redis { try await self.evalPipelined(StreamScripts.enqueue, keys: streamKeys, calls: group) } },
                        batches, end)
            start = end
        }
        if let last = inFlight {
            try tally.add(await last.task.value, batches: last.batches)
            progress?(last.sent)
        }
        try await announce(tally, at: now)
        return tally.added
    }

    /// New jobs per batch over the chunks of one call, batches in first-seen order.
    private struct BatchTally {
        var added = 0
        var order: [String] = []
        var counts: [String: Int] = [:]

        /// Adds the replies of the chunk scripts (`{added, count per batch}`), whose batches are
        /// `batches[i]` for reply `i`.
        mutating func add(_ replies: [RedisReply], batches: [[String]]) throws {
            for (reply, names) in zip(replies, batches) {
                guard let items = reply.array, items.count == names.count + 1,
                      let total = items[0].integer else {
                    throw RedisStreamsQueue.queueError(.protocolError("the enqueue script answered \(reply)"))
                }
                added += Int(total)
                for (name, item) in zip(names, items.dropFirst()) {
                    guard let count = item.integer else {
                        throw RedisStreamsQueue.queueError(.protocolError("the enqueue script answered \(reply)"))
                    }
                    guard count > 0 else { continue }
                    if counts[name] == nil { order.append(name) }
                    counts[name, default: 0] += Int(count)
                }
            }
        }
    }

    /// Publishes one `batchEnqueued` per batch that got new jobs, in one pipelined round trip.
    private func announce(_ tally: BatchTally, at now: Timestamp) async throws {
        let commands: [[[UInt8]]] = tally.order.compactMap { batch in
            guard let count = tally.counts[batch], count > 0 else { return nil }
            let event = JobEvent.batchEnqueued(batch: batch, count: count, at: now)
            return ["XADD", keys.events, "MAXLEN", "~", String(configuration.eventRetention), "*", "event"]
                .map { Array($0.utf8) } + [EventJSONWriter.bytes(event)]
        }
        guard !commands.isEmpty else { return }
        try await redis {
            for reply in try await self.client.pipeline(commands) { try reply.throwingOnError() }
        }
    }

    /// The arguments of one enqueue script call (see `StreamScripts.enqueue`) and the chunk's
    /// batches in the order the script reports their counts.
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
        for job in chunk {
            arguments.append(batchIndex[job.batch] ?? 1)
            arguments.append(job.id.rawValue)
            arguments.append(job.priority.rawValue)
            if let due = job.notBefore, due > now { arguments.append(due.millisecondsSince1970) } else { arguments.append("") }
            arguments.append(JobJSONWriter.bytes(job))
        }
        return (arguments, batches)
    }

    /// Runs `script` once per argument list, all pipelined on one connection; loads the script
    /// first when needed and reruns the calls Redis answered `NOSCRIPT` (those did not run).
    func evalPipelined(_ script: RedisScript, keys: [String], calls: [ScriptArguments]) async throws -> [RedisReply] {
        let head = [Array(String(keys.count).utf8)] + keys.map { Array($0.utf8) }
        let bodies = calls.map(\.values)
        return try await client.withConnection { connection throws(RedisError) in
            var sha: String
            if let known = script.sha { sha = known } else { sha = try connection.load(script) }
            func command(_ body: [[UInt8]]) -> [[UInt8]] { [Array("EVALSHA".utf8), Array(sha.utf8)] + head + body }
            var replies = try connection.pipeline(bodies.map(command))
            let missing = replies.indices.filter {
                if case .error(let message) = replies[$0] { return message.hasPrefix("NOSCRIPT") }
                return false
            }
            if !missing.isEmpty {
                sha = try connection.load(script)
                let again = try connection.pipeline(missing.map { command(bodies[$0]) })
                for (index, reply) in zip(missing, again) { replies[index] = reply }
            }
            for reply in replies { try reply.throwingOnError() }
            return replies
        }
    }
}
