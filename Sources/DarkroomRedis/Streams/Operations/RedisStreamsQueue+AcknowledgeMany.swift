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
        let now = Timestamp.now()
        let priorities = JobPriority.allCases.sorted()
        var sent: [Int] = []  // indices of the outcomes sent, in order
        sent.reserveCapacity(outcomes.count)
        var calls: [ScriptArguments] = []
        var arguments = ScriptArguments()
        var inCall = 0
        for (index, (delivery, outcome)) in outcomes.enumerated() {
            // A tag this driver did not make names no entry: like the single form, answer false.
            guard let (priority, entryID) = StreamTag.parse(delivery.tag),
                  let streamIndex = priorities.firstIndex(of: priority) else { continue }
            if inCall == 0 {
                arguments = ScriptArguments([RedisQueueKeys.group])
                arguments.append(configuration.eventRetention)
                arguments.append(Self.milliseconds(idempotencyWindow))
                arguments.append(keyPrefix)
            }
            let job = delivery.job
            let event: JobEvent
            let counter: String
            switch outcome {
            case .succeeded(let result):
                event = .succeeded(job: job.id, batch: job.batch, worker: delivery.consumer, attempt: delivery.attempt,
                                   result: result, at: now)
                counter = "succeeded"
            case .failed(let error):
                event = .failed(job: job.id, batch: job.batch, worker: delivery.consumer, attempt: delivery.attempt,
                                error: error, willRetry: false, at: now)
                counter = "failed"
            }
            arguments.append(streamIndex + 1)
            arguments.append(entryID)
            arguments.append(delivery.deliveryCount)
            arguments.append(EventJSONWriter.bytes(event))
            arguments.append(counter)
            arguments.append(job.batch)
            sent.append(index)
            inCall += 1
            if inCall == Self.acknowledgeChunk {
                calls.append(arguments)
                inCall = 0
            }
        }
        if inCall > 0 { calls.append(arguments) }
        var results = [Bool](repeating: false, count: outcomes.count)
        guard !calls.isEmpty else { return results }
        let scriptKeys = keys.streams + [keys.events]
        let sentCalls = calls
        let replies = try await redis {
            try await self.evalPipelined(StreamScripts.acknowledgeMany, keys: scriptKeys, calls: sentCalls)
        }
        var codes: [Int] = []
        codes.reserveCapacity(sent.count)
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
        guard codes.count == sent.count else {
            throw Self.queueError(.protocolError("the acknowledge script answered \(codes.count) codes for \(sent.count) entries"))
        }
        for (index, code) in zip(sent, codes) {
            if code == 1 {
                results[index] = true
            } else if code < 0 {
                // Reclaimed since: the event must name the attempt it is now.
                var current = outcomes[index].delivery
                current.deliveryCount = -code
                results[index] = try await acknowledge(current, outcome: outcomes[index].outcome)
            }
        }
        return results
    }
}
