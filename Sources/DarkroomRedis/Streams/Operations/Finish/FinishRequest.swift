import DarkroomQueue
import Foundation

/// One call of `StreamScripts.finish`: which pending entry, under which conditions, and what to
/// do with it. Built by the operations, sent by `RedisStreamsQueue.finish`.
struct FinishRequest: Sendable {
    enum Action: String, Sendable {
        /// Remove the entry (acknowledged).
        case ack
        /// Move it to the dead-letter stream.
        case dead
        /// Put it back at the tail of its stream (ready now).
        case ready
        /// Put it in the delayed set until `due`.
        case delay
    }

    var stream: String
    var entryID: String
    var action: Action
    /// Finish only if the entry's delivery count is this (nil: any).
    var expectedCount: Int?
    /// Finish only if this consumer holds the entry (nil: any).
    var requiredConsumer: String?
    var event: JobEvent?
    /// The batch hash and counter to increment with the event.
    var batch: String?
    var counter: String?
    /// The record to move (`dead`, `ready`, `delay`); nil copies the entry's own `job` field.
    var payload: Data?
    var priority: JobPriority = .normal
    var due: Timestamp?
    var deadError: JobError?

    init(stream: String, entryID: String, action: Action) {
        self.stream = stream
        self.entryID = entryID
        self.action = action
    }
}

/// What `finish` did.
enum FinishResult: Sendable, Equatable {
    case done
    /// Not pending any more, or held by another consumer: nothing changed.
    case notPending
    /// The entry has been delivered this many times, not the expected count: nothing changed.
    case countMismatch(Int)
}

extension RedisStreamsQueue {
    /// Sends one `StreamScripts.finish` call.
    func finish(_ request: FinishRequest) async throws -> FinishResult {
        let now = Timestamp.now()
        var arguments = ScriptArguments([RedisQueueKeys.group, request.entryID])
        arguments.append(request.expectedCount.map(String.init) ?? "")
        arguments.append(request.requiredConsumer ?? "")
        arguments.append(request.event.map(EventJSONWriter.bytes) ?? [])
        arguments.append(configuration.eventRetention)
        arguments.append(request.counter ?? "")
        arguments.append(Self.milliseconds(idempotencyWindow))
        arguments.append(request.action.rawValue)
        arguments.append(request.payload ?? Data())
        arguments.append(request.payload == nil ? "entry" : "given")
        arguments.append(request.priority.rawValue)
        arguments.append((request.due ?? now).millisecondsSince1970)
        arguments.append(try request.deadError.map(Self.json) ?? Data())
        arguments.append(now.iso8601)
        let batchKey = request.batch.map(keys.batch) ?? keys.batch("")
        let reply = try await eval(StreamScripts.finish,
                                   keys: [request.stream, keys.events, keys.delayed, keys.dead, batchKey],
                                   arguments: arguments)
        let code = try StreamReplies.integer(reply, "finish")
        switch code {
        case 1: return .done
        case 0: return .notPending
        default: return .countMismatch(-code)
        }
    }

    /// Finishes `delivery` with the request `make` builds for it, rebuilding it when the entry was
    /// reclaimed since (its delivery count, hence the attempt in the event, changed). The last try
    /// skips the count check, so a storm of reclaims cannot stall the caller.
    func finish<R: Sendable>(_ delivery: JobDelivery,
                             _ make: (JobDelivery, _ stream: String, _ entryID: String) throws -> (FinishRequest, R)) async throws -> R? {
        guard let (priority, entryID) = StreamTag.parse(delivery.tag) else { return nil }
        let stream = keys.stream(priority)
        var current = delivery
        for round in 1...4 {
            var (request, outcome) = try make(current, stream, entryID)
            request.expectedCount = round < 4 ? current.deliveryCount : nil
            let sent = request
            switch try await redis({ try await self.finish(sent) }) {
            case .done: return outcome
            case .notPending: return nil
            case .countMismatch(let actual): current.deliveryCount = actual
            }
        }
        return nil
    }
}
