import DarkroomQueue
import Foundation

extension RedisStreamsQueue {
    /// `XAUTOCLAIM` with min-idle `olderThan` over the streams of the lanes `offering` honours, in
    /// priority order (oldest entry first within a stream; another lane's entries are not
    /// touched, so they wait for a worker that offers their capabilities), in steps until `max` deliveries are made or the pending lists are
    /// scanned. Claiming increments each entry's delivery count; an entry whose attempt would now
    /// exceed `maxAttempts` is dead-lettered (`queue.stalled`, or `queue.unknown-version` for a
    /// record of a newer version) with a `dead` event naming `consumer`, checked by delivery count
    /// and holder so a concurrent reclaim cannot bury it twice. Garbage found pending (its reader
    /// died before burying it) is dead-lettered without an event.
    public func reclaimStale(consumer: String, olderThan: Duration, max: Int, offering: Set<String>) async throws -> ReclaimResult {
        try Self.check(consumer: consumer)
        guard max > 0 else { return ReclaimResult() }
        let minimumIdle = Self.milliseconds(olderThan, atLeast: 0)
        return try await redis {
            var result = ReclaimResult()
            var lanes = StreamLane.plain
            if !offering.isEmpty { lanes += try await self.capabilityLanes().filter { $0.isHonoured(by: offering) } }
            for lane in lanes.sorted() {
                var cursor = "0-0"
                // Bounded: each step scans part of the pending list; 64 steps cover any sane backlog
                // and the next call continues anyway.
                var steps = 0
                while result.deliveries.count < max, steps < 64 {
                    steps += 1
                    var arguments = ScriptArguments([RedisQueueKeys.group, consumer])
                    arguments.append(minimumIdle)
                    arguments.append(cursor)
                    arguments.append(max - result.deliveries.count)
                    let reply = try await self.eval(StreamScripts.reclaim, keys: [self.keys.stream(lane)], arguments: arguments)
                    guard let parts = reply.array, parts.count == 2, let next = parts[0].string,
                        let claimed = parts[1].array ?? (parts[1].isNull ? [] : nil)
                    else {
                        throw RedisError.protocolError("the reclaim script answered \(reply)")
                    }
                    for item in claimed {
                        guard let triple = item.array, triple.count == 3, let id = triple[0].string,
                            let count = triple[1].integer
                        else {
                            throw RedisError.protocolError("the reclaim script returned the entry \(item)")
                        }
                        let entry = StreamEntry(id: id, fields: try StreamReplies.fields(triple[2]))
                        try await self.settle(
                            entry, lane: lane, deliveryCount: Int(count),
                            consumer: consumer, into: &result)
                    }
                    cursor = next
                    if cursor == "0-0" { break }
                }
            }
            return result
        }
    }

    /// Hands out or buries one entry just claimed by `consumer`.
    private func settle(
        _ entry: StreamEntry, lane: StreamLane, deliveryCount: Int, consumer: String,
        into result: inout ReclaimResult
    ) async throws {
        let stream = keys.stream(lane)
        let now = clock.now()
        let maxAttempts = configuration.maxAttempts
        var request = FinishRequest(stream: stream, entryID: entry.id, action: .dead)
        request.requiredConsumer = consumer
        request.expectedCount = deliveryCount
        let decoded: JobDecoding =
            entry.hasJobField
            ? Job.decode(entry.payload) : .garbage(reason: "the stream entry has no 'job' field")
        switch decoded {
        case .job(let job):
            let delivery = JobDelivery(
                tag: StreamTag.make(lane, entry.id), job: job, consumer: consumer,
                deliveryCount: deliveryCount)
            guard delivery.attempt > maxAttempts else {
                result.deliveries.append(delivery)
                return
            }
            // The attempt that was handed out last, and never finished.
            let last = delivery.attempt - 1
            let error = JobError.stalled(attempt: last, deliveries: deliveryCount - 1, previous: job.lastError)
            request = Self.burial(delivery, stream: stream, entryID: entry.id, error: error, attempt: last, at: now)
            request.requiredConsumer = consumer
            request.expectedCount = deliveryCount
        case .unknownVersion(let version):
            // Claimed but not returned: this worker cannot read it either.
            guard deliveryCount > maxAttempts else { return }
            let made = deliveryCount - 1
            let error = JobError.unknownVersion(version, deliveries: made)
            request.deadError = error
            if let (id, batch) = Self.identity(of: entry.payload) {
                request.event = .dead(job: id, batch: batch, worker: consumer, attempt: Swift.max(made, 1), error: error, at: now)
                request.batch = batch
                request.counter = "dead"
            }
        case .garbage(let reason):
            request.payload = entry.payload
            request.deadError = .garbage(reason)
            request.expectedCount = nil
        }
        if try await finish(request) == .done { result.deadLettered += 1 }
    }

    /// The id and batch of a record of another version, when it has them.
    static func identity(of payload: Data) -> (JobID, String)? {
        struct Probe: Decodable {
            var id: JobID
            var batch: String
        }
        guard let probe = try? JSONDecoder().decode(Probe.self, from: payload), JobID.isAcceptable(probe.batch) else {
            return nil
        }
        return (probe.id, probe.batch)
    }
}

extension StreamScripts {
    /// One `XAUTOCLAIM` step over one stream, with each claimed entry's new delivery count.
    ///
    /// `KEYS`: the stream. `ARGV`: group, consumer, min idle (ms), start cursor, count.
    /// Claims up to `count` entries idle for at least `min idle` (their delivery counts go up by
    /// one and their idle times restart) and returns `{next cursor, {{id, delivery count, fields}…}}`.
    /// Deciding what to do with them (hand out, or dead-letter past `maxAttempts`) needs the job
    /// record, so the caller does it with `finish`, checking the count it was given here.
    static let reclaim = RedisScript(
        """
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
