import Foundation

extension RedisStreamsQueue {
    /// Adds jobs with one `StreamScripts.enqueue` call per chunk of `enqueueChunk` jobs, pipelined
    /// `enqueueChunksPerPipeline` chunks at a time. Every job is validated before anything is
    /// sent, so a bad job adds nothing. Records are written by `JobJSONWriter` (the same bytes as
    /// `Job.jsonData()`, several times faster).
    ///
    /// Each chunk publishes its own `batchEnqueued` event per batch (atomically with its jobs, so
    /// no worker can finish a job before its batch was announced): an enqueue call of up to
    /// `enqueueChunk` jobs publishes one event per batch; a bigger call one per chunk, whose
    /// counts add up to the new jobs. If Redis fails midway, the chunks before the failure are
    /// queued: enqueueing is idempotent, so repeat the call.
    public func enqueue(_ jobs: [Job]) async throws -> Int {
        for job in jobs {
            if let problem = job.problem {
                throw JobQueueError(.invalidArgument, "job \(job.id): \(problem); nothing was enqueued")
            }
        }
        guard !jobs.isEmpty else { return 0 }
        let now = Timestamp.now()
        let streamKeys = keys.streams + [keys.delayed, keys.events]
        // Chunks go out in groups: while Redis runs one group's scripts, the next group is
        // encoded, so the client's and Redis's work overlap. Groups are sent one after the other,
        // so jobs are queued in the order given.
        let groupSize = Self.enqueueChunk * Self.enqueueChunksPerPipeline
        var inFlight: Task<[RedisReply], any Error>?
        var added = 0
        var start = 0
        while start < jobs.count {
            let end = min(start + groupSize, jobs.count)
            var calls: [ScriptArguments] = []
            var chunkStart = start
            do {
                while chunkStart < end {
                    let chunkEnd = min(chunkStart + Self.enqueueChunk, end)
                    calls.append(try enqueueArguments(jobs[chunkStart..<chunkEnd], now: now))
                    chunkStart = chunkEnd
                }
            } catch {
                _ = try? await inFlight?.value  // never leave a send running unobserved
                throw error
            }
            if let previous = inFlight { added += try await Self.count(previous.value) }
            let group = calls
            inFlight = Task { try await self.redis { try await self.evalPipelined(StreamScripts.enqueue, keys: streamKeys, calls: group) } }
            start = end
        }
        if let last = inFlight { added += try await Self.count(last.value) }
        return added
    }

    private static func count(_ replies: [RedisReply]) throws -> Int {
        var added = 0
        for reply in replies {
            do { added += try StreamReplies.integer(reply, "enqueue") } catch { throw queueError(error) }
        }
        return added
    }

    /// The arguments of one enqueue script call (see `StreamScripts.enqueue`).
    private func enqueueArguments(_ chunk: ArraySlice<Job>, now: Timestamp) throws -> ScriptArguments {
        var batchIndex: [String: Int] = [:]
        var batches: [String] = []
        for job in chunk where batchIndex[job.batch] == nil {
            batches.append(job.batch)
            batchIndex[job.batch] = batches.count
        }
        var arguments = ScriptArguments()
        arguments.append(keyPrefix)
        arguments.append(Self.milliseconds(idempotencyWindow))
        arguments.append(configuration.eventRetention)
        arguments.append(batches.count)
        for batch in batches {
            let (head, tail) = try Self.batchEnqueuedTemplate(batch: batch, at: now)
            arguments.append(batch)
            arguments.append(head)
            arguments.append(tail)
        }
        for job in chunk {
            arguments.append(batchIndex[job.batch] ?? 1)
            arguments.append(job.id.rawValue)
            arguments.append(job.priority.rawValue)
            if let due = job.notBefore, due > now { arguments.append(due.millisecondsSince1970) } else { arguments.append("") }
            arguments.append(JobJSONWriter.bytes(job))
        }
        return arguments
    }

    /// A `batchEnqueued` event's JSON split around its count, for the script to put the number of
    /// new jobs in (only Redis knows which ids are new). `"count":` cannot occur earlier in the
    /// record: keys are sorted, so only `at` (a fixed-format time) and `batch` come before it, and a
    /// quote inside the batch name is escaped.
    static func batchEnqueuedTemplate(batch: String, at now: Timestamp) throws -> (head: [UInt8], tail: [UInt8]) {
        let bytes = Array(try json(JobEvent.batchEnqueued(batch: batch, count: 0, at: now)))
        let marker = Array(#""count":0"#.utf8)
        guard let start = bytes.firstRange(of: marker) else {
            throw JobQueueError(.encoding, "the batchEnqueued event has no count to fill in")
        }
        return (Array(bytes[..<(start.upperBound - 1)]), Array(bytes[start.upperBound...]))
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
