import DarkroomQueue
import Foundation

/// The event stream `{p}:events`: one entry per event, field `event` = event JSON; cursors are
/// stream entry ids.
extension RedisStreamsQueue {
    public func publish(_ events: [JobEvent]) async throws {
        try Self.checkPublishable(events)
        try await appendEvents(events)
    }

    /// Appends events with `StreamScripts.appendEvents` (one script run), trimmed like the events
    /// the queue's own scripts publish.
    func appendEvents(_ events: [JobEvent]) async throws {
        guard !events.isEmpty else { return }
        var arguments = ScriptArguments()
        arguments.append(configuration.eventRetention)
        for event in events { arguments.append(EventJSONWriter.bytes(event)) }
        let sent = arguments
        _ = try await redis { try await self.eval(StreamScripts.appendEvents, keys: [self.keys.events], arguments: sent) }
    }

    /// `XREAD COUNT limit STREAMS {p}:events <cursor>`, with `BLOCK` (at most `longestBlock` per
    /// call) on a dedicated connection when `wait` allows. Entries
    /// of unknown version or type are skipped; a page of nothing but those is read past.
    public func readEvents(after cursor: EventCursor, limit: Int, wait: Duration) async throws -> [EventEnvelope] {
        guard StreamID.isValid(cursor.rawValue) else {
            throw JobQueueError(.invalidCursor, "'\(cursor.rawValue.prefix(40))' is not a cursor of the Redis queue (a stream id like 1700000000000-0)")
        }
        guard limit > 0 else { return [] }
        let clock = ContinuousClock()
        let deadline = clock.now + max(wait, .zero)
        var position = cursor.rawValue
        return try await redis {
            while true {
                let remaining = deadline - clock.now
                let block: Duration? = remaining >= .milliseconds(1) && !Task.isCancelled ? min(remaining, Self.longestBlock) : nil
                // One command either way: `XREAD BLOCK` answers at once when entries are there, so
                // a non-blocking read first would only send every waiting read twice.
                var command = ["XREAD", "COUNT", String(limit)]
                if let block { command += ["BLOCK", String(Self.milliseconds(block))] }
                let entries = try await self.readEventPage(command + ["STREAMS", self.keys.events, position], block: block)
                guard let last = entries.last else {
                    if block == nil { return [] }
                    continue
                }
                let envelopes = entries.compactMap { entry -> EventEnvelope? in
                    guard let json = entry.value("event") else { return nil }
                    let (decoding, canonical) = JobEvent.decodeNoting(json)
                    guard case .event(let event) = decoding else { return nil }
                    let cursor = EventCursor(rawValue: entry.id)
                    return canonical
                        ? EventEnvelope(cursor: cursor, event: event, canonicalRecord: json)
                        : EventEnvelope(cursor: cursor, event: event)
                }
                if !envelopes.isEmpty { return envelopes }
                position = last.id
            }
        }
    }

    private func readEventPage(_ command: [String], block: Duration?) async throws -> [StreamEntry] {
        let reply: RedisReply
        if let block {
            let timeout = block + .seconds(10)
            reply = try await client.withDedicatedConnection { connection throws(RedisError) in
                try connection.command(command, timeout: timeout)
            }
        } else {
            reply = try await client.command(command)
        }
        return try StreamReplies.streams(reply).first?.entries ?? []
    }

    public func latestEventCursor() async throws -> EventCursor {
        let reply = try await redis { try await self.client.command(["XREVRANGE", self.keys.events, "+", "-", "COUNT", "1"]) }
        do {
            return try StreamReplies.entries(reply).first.map { EventCursor(rawValue: $0.id) } ?? .start
        } catch { throw Self.queueError(error) }
    }

    /// Stream ids are `<ms>-<seq>` from Redis's clock when the event was added, so reading after
    /// `<ms - 1>-<largest seq>` yields exactly the events added at or after `time`.
    public func eventCursor(at time: Timestamp) async throws -> EventCursor {
        let milliseconds = time.millisecondsSince1970
        guard milliseconds > 0 else { return .start }
        return EventCursor(rawValue: "\(milliseconds - 1)-18446744073709551615")
    }
}
