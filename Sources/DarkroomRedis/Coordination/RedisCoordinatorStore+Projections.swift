import DarkroomFleetStatus
import DarkroomQueue

/// The fold of a page of events into the projections, atomically with the checkpoint: one call of
/// `CoordinatorScripts.apply` (`ApplyProjectionsLua.swift`) per page, whatever its size.
extension RedisCoordinatorStore {
    public func applyProjections(_ events: [EventEnvelope], after checkpoint: EventCursor?, owner: String) async throws
        -> ProjectionUpdate
    {
        guard !events.isEmpty else { return .applied }
        var arguments = ScriptArguments([
            owner, checkpoint?.rawValue ?? "", queue.keyPrefix, String(Self.milliseconds(queue.idempotencyWindow)),
            String(Self.milliseconds(Self.registrationTTL)), String(queue.clock.now().millisecondsSince1970),
            events[events.count - 1].cursor.rawValue,
        ])
        // The script keeps a running job's record from its last event in the page, a finished
        // job's compact record, and the records of failures; every other event goes without its
        // record (most of what the script is sent).
        var lastOfJob: [JobID: Int] = [:]
        for (index, envelope) in events.enumerated() {
            if let job = envelope.event.job { lastOfJob[job] = index }
        }
        for (index, envelope) in events.enumerated() {
            let event = envelope.event
            let lastOfItsJob = event.job.map { lastOfJob[$0] == index } == true
            arguments.append(lastOfItsJob ? envelope.cursor.rawValue : "")
            arguments.append(event.type == .failed && event.willRetry == true ? "retrying" : event.type.rawValue)
            arguments.append(event.job?.rawValue ?? "")
            arguments.append(event.batch ?? "")
            arguments.append(event.worker ?? "")
            arguments.append(event.at.millisecondsSince1970)
            // A job that ends keeps a compact record, not its event: its event goes only where a
            // failure's record is needed.
            let head = lastOfItsJob ? FinishedJobRecord.head(of: event, at: envelope.cursor) : nil
            arguments.append((lastOfItsJob && head == nil) || event.type == .failed || event.type == .dead ? envelope.canonicalRecord : [])
            arguments.append(head ?? [])
        }
        let sent = arguments
        let reply = try await redis {
            try await self.eval(CoordinatorScripts.apply, keys: [self.keys.coordinatorLease, self.keys.coordinator], arguments: sent)
        }
        switch reply.array?.first?.integer {
        case 1: return .applied
        case 0: return .leaseLost
        case -1:
            let stored = reply.array?.dropFirst().first?.string ?? ""
            return .checkpointMoved(stored.isEmpty ? nil : EventCursor(rawValue: stored))
        default: throw RedisStreamsQueue.queueError(.protocolError("the projection script answered \(reply)"))
        }
    }
}
