import DarkroomQueue
import Foundation

/// The dead-letter stream `{p}:dead`, queue sizes and batch counters.
extension RedisStreamsQueue {
    public func deadLetters(limit: Int) async throws -> [DeadLetter] {
        guard limit > 0 else { return [] }
        let reply = try await redis { try await self.client.command(["XRANGE", self.keys.dead, "-", "+", "COUNT", String(limit)]) }
        do { return try StreamReplies.entries(reply).map(Self.deadLetter) } catch { throw Self.queueError(error) }
    }

    /// Reads a dead-letter entry; fields it lacks get neutral values rather than failing the list.
    static func deadLetter(_ entry: StreamEntry) -> DeadLetter {
        let payload = Data(entry.value("job") ?? [])
        var job: Job?
        if case .job(let decoded) = Job.decode(payload) { job = decoded }
        let error = entry.value("error").flatMap { try? RecordJSON.decoder().decode(JobError.self, from: Data($0)) }
            ?? JobError(code: "queue.unknown", message: "the dead letter has no readable error")
        let at = entry.value("at").flatMap { Timestamp(iso8601: String(decoding: $0, as: UTF8.self)) }
            ?? Timestamp(millisecondsSince1970: StreamID.milliseconds(entry.id) ?? 0)
        return DeadLetter(id: entry.id, at: at, job: job, payload: payload, error: error)
    }

    /// Requeues readable dead letters as fresh first attempts (`attempt` 1, no `notBefore`) with
    /// `StreamScripts.retryDeadLetters`, which removes each letter and queues its job atomically
    /// (a letter another call requeued first is skipped) and takes it off its batch's `dead` count.
    public func retryDeadLetters(ids: [String]?) async throws -> Int {
        try await redis {
            var letters: [StreamEntry] = []
            if let ids {
                for id in Set(ids) where StreamID.isValid(id) {
                    letters += try StreamReplies.entries(try await self.client.command(["XRANGE", self.keys.dead, id, id]))
                }
            } else {
                try await self.scanStream(self.keys.dead) { letters.append($0) }
            }
            var queued = 0
            var start = 0
            while start < letters.count {
                let end = min(start + 500, letters.count)
                var arguments = ScriptArguments([self.keyPrefix])
                arguments.append(Self.milliseconds(self.idempotencyWindow))
                var any = false
                for letter in letters[start..<end] {
                    guard var job = Self.deadLetter(letter).job else { continue }  // garbage stays
                    job.attempt = 1
                    job.notBefore = nil
                    arguments.append(letter.id)
                    arguments.append(self.keys.stream(job.priority))
                    arguments.append(try Self.json(job))
                    arguments.append(job.batch)
                    any = true
                }
                if any {
                    let reply = try await self.eval(StreamScripts.retryDeadLetters, keys: [self.keys.dead], arguments: arguments)
                    queued += try StreamReplies.integer(reply, "retry dead letters")
                }
                start = end
            }
            return queued
        }
    }

    public func purgeDeadLetters() async throws -> Int {
        let reply = try await redis { try await self.eval(StreamScripts.purge, keys: [self.keys.dead], arguments: ScriptArguments()) }
        do { return try StreamReplies.integer(reply, "purge") } catch { throw Self.queueError(error) }
    }

    public func counts() async throws -> QueueCounts {
        let reply = try await redis {
            try await self.eval(StreamScripts.counts, keys: self.keys.streams + [self.keys.delayed, self.keys.dead],
                                arguments: ScriptArguments([RedisQueueKeys.group]))
        }
        guard let values = reply.array?.compactMap(\.integer).map(Int.init), values.count == 8 else {
            throw Self.queueError(.protocolError("the counts script answered \(reply)"))
        }
        var ready: [JobPriority: Int] = [:]
        for (index, priority) in JobPriority.allCases.sorted().enumerated() {
            ready[priority] = max(values[index * 2] - values[index * 2 + 1], 0)
        }
        return QueueCounts(ready: ready, delayed: values[6], pending: values[1] + values[3] + values[5],
                           deadLettered: values[7])
    }

    public func batchProgress(_ batch: String) async throws -> BatchProgress? {
        let reply = try await redis { try await self.client.command(["HGETALL", self.keys.batch(batch)]) }
        guard let flat = reply.array, !flat.isEmpty else { return nil }
        var fields: [String: Int] = [:]
        var index = 0
        while index + 1 < flat.count {
            if let name = flat[index].string, let value = flat[index + 1].integer { fields[name] = Int(clamping: value) }
            index += 2
        }
        return BatchProgress(total: fields["total"] ?? 0, succeeded: fields["succeeded"] ?? 0, failed: fields["failed"] ?? 0,
                             dead: fields["dead"] ?? 0, cancelled: fields["cancelled"] ?? 0)
    }
}
