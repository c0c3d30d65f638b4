import DarkroomQueue
import Foundation

/// Group commit of acknowledgements: many finished jobs in one round trip.
extension RedisStreamsQueue {
    /// Entries per `StreamScripts.acknowledgeMany` call: a few hundred keep one script well under
    /// a millisecond of Redis time; bigger groups are several calls pipelined in the same round trip.
    static let acknowledgeChunk = 256

    /// Sends every acknowledgement through `StreamScripts.acknowledgeMany` — one script per chunk,
    /// all chunks pipelined in one round trip — with the delivery count each delivery expects. The
    /// rare entry reclaimed since its delivery (the count differs, so its event's `attempt` must be
    /// rebuilt) is then finished by the single `acknowledge`, which handles exactly that.
    public func acknowledge(_ outcomes: [(delivery: JobDelivery, outcome: JobOutcome)]) async throws -> [Bool] {
        guard !outcomes.isEmpty else { return [] }
        let now = clock.now()
        var sent: [Int] = []  // indices of the outcomes sent, in order
        sent.reserveCapacity(outcomes.count)
        var calls: [ScriptArguments] = []
        var arguments = ScriptArguments()
        var inCall = 0
        for (index, (delivery, outcome)) in outcomes.enumerated() {
            if inCall == 0 {
                arguments = ScriptArguments([RedisQueueKeys.group])
                arguments.append(configuration.eventRetention)
                arguments.append(Self.milliseconds(idempotencyWindow))
                arguments.append(keyPrefix)
            }
            // A tag this driver did not make names no entry: like the single form, answer false.
            guard appendAcknowledgement(delivery, outcome, at: now, to: &arguments) else { continue }
            sent.append(index)
            inCall += 1
            if inCall == Self.acknowledgeChunk {
                calls.append(arguments)
                inCall = 0
            }
        }
        if inCall > 0 { calls.append(arguments) }
        guard !calls.isEmpty else { return [Bool](repeating: false, count: outcomes.count) }
        let scriptKeys = keys.streams + [keys.events]
        let sentCalls = calls
        let replies = try await redis {
            try await self.evalPipelined(StreamScripts.acknowledgeMany, keys: scriptKeys, calls: sentCalls)
        }
        return try await acknowledged(outcomes, sent: sent, codes: try Self.acknowledgementCodes(replies))
    }

    /// Appends one entry's six `acknowledgeManyBody` values (its stream, entry id, expected
    /// delivery count, terminal event, batch counter and batch); false, appending nothing, for a
    /// tag this driver did not make.
    func appendAcknowledgement(_ delivery: JobDelivery, _ outcome: JobOutcome, at now: Timestamp, to arguments: inout ScriptArguments) -> Bool {
        guard let (lane, entryID) = StreamTag.parse(delivery.tag) else { return false }
        let job = delivery.job
        let event: JobEvent
        let counter: String
        switch outcome {
        case .succeeded(let result):
            event = .succeeded(
                job: job.id, batch: job.batch, worker: delivery.consumer, attempt: delivery.attempt,
                result: result, source: job.source, chain: job.chain, metadata: job.metadata, at: now)
            counter = "succeeded"
        case .failed(let error):
            event = .failed(
                job: job.id, batch: job.batch, worker: delivery.consumer, attempt: delivery.attempt,
                error: error, willRetry: false, source: job.source, chain: job.chain, metadata: job.metadata, at: now)
            counter = "failed"
        }
        // A plain stream by its index in KEYS; a capability lane by its key.
        if let index = StreamLane.plain.firstIndex(of: lane) { arguments.append(index + 1) } else { arguments.append(keys.stream(lane)) }
        arguments.append(entryID)
        arguments.append(delivery.deliveryCount)
        arguments.append(EventJSONWriter.bytes(event))
        arguments.append(counter)
        arguments.append(job.batch)
        return true
    }

    /// The per-entry codes of `acknowledgeManyBody` answers, in order.
    static func acknowledgementCodes(_ replies: [RedisReply]) throws -> [Int] {
        var codes: [Int] = []
        for reply in replies {
            guard let items = reply.array else {
                throw Self.queueError(.protocolError("the acknowledge script answered \(reply)"))
            }
            for item in items {
                guard let code = item.integer else {
                    throw Self.queueError(.protocolError("the acknowledge script answered \(item) for an entry"))
                }
                codes.append(Int(code))
            }
        }
        return codes
    }

    /// One Bool per outcome from the codes of the outcomes `sent` (indices into `outcomes`): 1
    /// finished, 0 not pending, minus a delivery count for an entry reclaimed since, which the
    /// single `acknowledge` then finishes with its event naming the attempt it is now.
    func acknowledged(_ outcomes: [(delivery: JobDelivery, outcome: JobOutcome)], sent: [Int], codes: [Int]) async throws -> [Bool] {
        guard codes.count == sent.count else {
            throw Self.queueError(.protocolError("the acknowledge script answered \(codes.count) codes for \(sent.count) entries"))
        }
        var results = [Bool](repeating: false, count: outcomes.count)
        for (index, code) in zip(sent, codes) {
            if code == 1 {
                results[index] = true
            } else if code < 0 {
                var current = outcomes[index].delivery
                current.deliveryCount = -code
                results[index] = try await acknowledge(current, outcome: outcomes[index].outcome)
            }
        }
        return results
    }
}

extension StreamScripts {
    /// Group commit: acknowledges many pending entries in one call, each exactly as `finish` with
    /// action `ack` would — checked, acknowledged, published and counted on its own — so one call
    /// costs one script run instead of one per job.
    ///
    /// `KEYS`: high, normal, low streams, events stream.
    /// `ARGV`: 1. group, 2. event MAXLEN, 3. batch hash expiry (ms), 4. key prefix, then per entry
    /// six values: stream (its index 1 high, 2 normal, 3 low, or a capability lane's key), entry id, expected delivery count
    /// ('' = any), event JSON, batch counter (`succeeded` or `failed`), batch name.
    ///
    /// Per entry, in order: `XPENDING stream group id id 1`; not pending (or its stream or group is
    /// gone) → 0, nothing changes; delivered a different number of times than expected (reclaimed
    /// since) → minus the actual count, nothing changes; otherwise `XACK` + `XDEL` + `XADD` of its event, counted in its
    /// batch (when the batch hash exists) → 1. The whole call is one script, so each entry's
    /// acknowledgement, event and count still happen together; the counters and expiries of
    /// several entries of one batch (and its `endedAt`) are written once at the end, still inside
    /// the script.
    /// Returns the codes, one per entry.
    static let acknowledgeMany = RedisScript(
        StreamScripts.eventMaxLenFunction + StreamScripts.batchClockFunction
            + "local entriesStart, entriesEnd, eventLimit = 5, #ARGV, nil\n" + acknowledgeManyBody + "return codes\n")

    /// The Lua of `acknowledgeMany` (also in `acknowledgeAndReserve`): acknowledges the entries
    /// of `ARGV[entriesStart…entriesEnd]` (locals set before it, with `eventLimit`: the events'
    /// MAXLEN when the caller has read it already, or nil), leaving their codes in the local
    /// `codes`. Needs `eventMaxLenFunction` and `batchClockFunction` before it.
    ///
    /// Per call it reads the event cap at most once (and not at all when nothing is acknowledged),
    /// and per batch its `PTTL` says both whether the hash exists (-2 when not) and whether its
    /// expiry needs extending: a single-job worker's every job goes through here.
    static let acknowledgeManyBody = """
        local group, window, prefix = ARGV[1], ARGV[3], ARGV[4]
        local maxlen = eventLimit
        local codes, counts, order = {}, {}, {}
        for i = entriesStart, entriesEnd, 6 do
          local stream, id = KEYS[tonumber(ARGV[i]) or 0] or ARGV[i], ARGV[i + 1]
          local code = 0
          if stream then
            -- pcall: an entry whose stream or group is gone (NOGROUP) is not pending. Raising
            -- here would abort the script after earlier entries were acknowledged and published
            -- but before their batch counts below were written (scripts are not rolled back).
            local ok, found = pcall(redis.call, 'XPENDING', stream, group, id, id, 1)
            local pending = ok and found[1]
            if pending then
              if ARGV[i + 2] ~= '' and pending[4] ~= tonumber(ARGV[i + 2]) then
                code = -pending[4]
              else
                redis.call('XACK', stream, group, id)
                redis.call('XDEL', stream, id)
                if not maxlen then maxlen = eventMaxLen(KEYS[4], ARGV[2]) end
                redis.call('XADD', KEYS[4], 'MAXLEN', '~', maxlen, '*', 'event', ARGV[i + 3])
                local key = prefix .. ':batch:' .. ARGV[i + 5]
                local batch = counts[key]
                if not batch then
                  batch = {}
                  counts[key] = batch
                  order[#order + 1] = key
                end
                batch[ARGV[i + 4]] = (batch[ARGV[i + 4]] or 0) + 1
                code = 1
              end
            end
          end
          codes[#codes + 1] = code
        end
        for _, key in ipairs(order) do
          local ttl = redis.call('PTTL', key)
          if ttl ~= -2 then
            for counter, n in pairs(counts[key]) do redis.call('HINCRBY', key, counter, n) end
            redis.call('HSET', key, 'endedAt', batchClock())
            if ttl < tonumber(window) then redis.call('PEXPIRE', key, window) end
          end
        end

        """
}
