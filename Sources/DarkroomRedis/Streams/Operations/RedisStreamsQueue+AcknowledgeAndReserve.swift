import DarkroomQueue
import Foundation

/// A worker's round trip in one script: its queued `started` events, its acknowledgements and
/// the reservation of its next jobs (BullMQ's `moveToFinished`).
extension RedisStreamsQueue {
    /// One `StreamScripts.acknowledgeAndReserve` run. Every key it touches is under this queue's
    /// prefix, so on a Redis Cluster whose keys share one hash tag (`{darkroom}`) it stays in one
    /// slot, and a fleet sharded into several prefixes reserves only from the shard whose jobs it
    /// acknowledges. More acknowledgements than one script takes (`acknowledgeChunk`) go the long
    /// way: `publish`, `acknowledge` (pipelined chunks), then `reserve` without waiting.
    public func acknowledge(
        _ outcomes: [(delivery: JobDelivery, outcome: JobOutcome)], publishing events: [JobEvent], reserving next: NextReservation?
    ) async throws -> AcknowledgedAndReserved {
        try Self.checkPublishable(events)
        if let next { try Self.check(consumer: next.consumer) }
        let reserving = next.map { Swift.max($0.max, 0) } ?? 0
        guard outcomes.count <= Self.acknowledgeChunk else {
            if !events.isEmpty { try await appendEvents(events) }
            let acknowledged = try await acknowledge(outcomes)
            var reserved: [JobDelivery] = []
            if let next, reserving > 0 {
                reserved = try await reserve(consumer: next.consumer, max: reserving, wait: .zero, offering: next.offering)
            }
            return AcknowledgedAndReserved(acknowledged: acknowledged, reserved: reserved)
        }
        guard !outcomes.isEmpty || !events.isEmpty || reserving > 0 else {
            return AcknowledgedAndReserved(acknowledged: [], reserved: [])
        }
        let now = clock.now()
        let offers = next?.offering.sorted() ?? []
        var arguments = ScriptArguments([RedisQueueKeys.group])
        arguments.append(configuration.eventRetention)
        arguments.append(Self.milliseconds(idempotencyWindow))
        arguments.append(keyPrefix)
        arguments.append(next?.consumer ?? "")
        arguments.append(now.millisecondsSince1970)
        arguments.append(reserving)
        arguments.append(Self.promotionLimit)
        arguments.append(offers.count)
        arguments.append(events.count)
        for name in offers { arguments.append(name) }
        for event in events { arguments.append(EventJSONWriter.bytes(event)) }
        var sent: [Int] = []
        for (index, (delivery, outcome)) in outcomes.enumerated() where appendAcknowledgement(delivery, outcome, at: now, to: &arguments) {
            sent.append(index)
        }
        let sentArguments = arguments
        let scriptKeys = keys.streams + [keys.events, keys.delayed, keys.lanes]
        let reply = try await redis {
            try await self.eval(StreamScripts.acknowledgeAndReserve, keys: scriptKeys, arguments: sentArguments)
        }
        guard let parts = reply.array, parts.count == 2 else {
            throw Self.queueError(.protocolError("the acknowledge-and-reserve script answered \(reply)"))
        }
        let codes = parts[0].isNull ? [] : try Self.acknowledgementCodes([parts[0]])
        let acknowledged = try await acknowledged(outcomes, sent: sent, codes: codes)
        var reserved: [JobDelivery] = []
        if let next, reserving > 0 {
            let (entries, _, _) = try await readyEntries(parts[1])
            reserved = try await deliver(entries, to: next.consumer, max: reserving)
        }
        return AcknowledgedAndReserved(acknowledged: acknowledged, reserved: reserved)
    }
}

extension StreamScripts {
    /// Publishes events, acknowledges entries and reserves the consumer's next jobs, in that
    /// order, in one run: `appendEvents`, then `acknowledgeMany`, then `reserve` without the
    /// blocking read.
    ///
    /// `KEYS`: high, normal, low streams, events stream, delayed set, lane set.
    /// `ARGV`: 1. group, 2. event MAXLEN, 3. batch hash expiry (ms), 4. key prefix, 5. consumer,
    /// 6. now (ms), 7. jobs to reserve (0: none), 8. promotion limit, 9. number of capabilities
    /// offered, 10. number of events; then the capabilities, the event JSONs, and the entries to
    /// acknowledge, six values each as in `acknowledgeMany`.
    ///
    /// Returns `{codes, reserved}`: the acknowledgement codes (as `acknowledgeMany`), and
    /// `reserve`'s answer `{entries, nextDue, missing, lanes}` (empty entries when 7. is 0).
    static let acknowledgeAndReserve = RedisScript(
        eventMaxLenFunction + batchClockFunction + laneStreamFunction + promoteDueFunction + reserveReadyFunction + """
            local offerCount, eventCount = tonumber(ARGV[9]), tonumber(ARGV[10])
            local offered = {}
            for i = 11, 10 + offerCount do offered[ARGV[i]] = true end
            local firstEvent = 11 + offerCount
            -- Events first: a job's `started` must precede its terminal event below. The cap read
            -- here serves the acknowledgements' events too.
            local eventLimit = nil
            if eventCount > 0 then
              eventLimit = eventMaxLen(KEYS[4], ARGV[2])
              for i = firstEvent, firstEvent + eventCount - 1 do
                redis.call('XADD', KEYS[4], 'MAXLEN', '~', eventLimit, '*', 'event', ARGV[i])
              end
            end
            local entriesStart, entriesEnd = firstEvent + eventCount, #ARGV

            """ + acknowledgeManyBody + """
                local want = tonumber(ARGV[7])
                local reserved = { {}, '', 0, {} }
                if want > 0 then
                  reserved = reserveReady({ KEYS[5], KEYS[1], KEYS[2], KEYS[3], KEYS[6] }, ARGV[1], ARGV[5], ARGV[6], want, ARGV[8], ARGV[4], offered)
                end
                return { codes, reserved }
                """)
}
