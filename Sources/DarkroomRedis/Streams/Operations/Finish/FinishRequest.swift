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
    /// The lane whose token prefixes the delayed member (`delay`).
    var lane = StreamLane(.normal)
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
        let now = clock.now()
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
        arguments.append(request.lane.token)
        arguments.append((request.due ?? now).millisecondsSince1970)
        arguments.append(try request.deadError.map(Self.json) ?? Data())
        arguments.append(now.iso8601)
        let batchKey = request.batch.map(keys.batch) ?? keys.batch("")
        let reply = try await eval(
            StreamScripts.finish,
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
    func finish<R: Sendable>(
        _ delivery: JobDelivery,
        _ make: (JobDelivery, _ stream: String, _ entryID: String) throws -> (FinishRequest, R)
    ) async throws -> R? {
        guard let (lane, entryID) = StreamTag.parse(delivery.tag) else { return nil }
        let stream = keys.stream(lane)
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

extension StreamScripts {
    /// Finishes (or hands back) one pending entry — the single script behind `acknowledge`,
    /// `retry`, `deadLetter`, `release`, dead-lettering garbage, and `reclaimStale`'s dead letters.
    ///
    /// `KEYS`: the entry's stream, events stream, delayed set, dead stream, the job's batch hash.
    /// `ARGV`:
    /// 1. group, 2. entry id,
    /// 3. expected delivery count ('' = any), 4. consumer that must hold it ('' = any),
    /// 5. event JSON ('' = none), 6. event MAXLEN,
    /// 7. batch counter to increment ('' = none), 8. batch hash expiry (ms),
    /// 9. action: `ack` (just remove), `dead` (to the dead stream), `ready` (to the tail of the same
    ///    stream), `delay` (to the delayed set),
    /// 10. payload, 11. `given` (use ARGV 10) or `entry` (copy the entry's `job` field),
    /// 12. lane token (delayed member prefix), 13. due ms (`delay`),
    /// 14. dead letter's error JSON, 15. dead letter's time (ISO-8601).
    ///
    /// First `XPENDING stream group id id 1`: when the entry is not pending (already finished by
    /// another delivery), or not held by the required consumer, returns 0 and changes nothing.
    /// When its delivery count is not the expected one (it was reclaimed since the caller's
    /// delivery), returns minus the actual count, so the caller can re-encode the event with the
    /// right attempt and call again. Otherwise `XACK` + `XDEL` + the action + the event + the batch
    /// counter and its `endedAt` (only when the batch hash exists), atomically, and returns 1.
    static let finish = RedisScript(
        StreamScripts.eventMaxLenFunction + StreamScripts.batchClockFunction + """
            local group, id = ARGV[1], ARGV[2]
            local pending = redis.call('XPENDING', KEYS[1], group, id, id, 1)[1]
            if not pending then return 0 end
            if ARGV[4] ~= '' and pending[2] ~= ARGV[4] then return 0 end
            if ARGV[3] ~= '' and pending[4] ~= tonumber(ARGV[3]) then return -pending[4] end
            local action, payload = ARGV[9], ARGV[10]
            if action ~= 'ack' and ARGV[11] == 'entry' then
              payload = ''
              local found = redis.call('XRANGE', KEYS[1], id, id)[1]
              if found and found[2] then
                local fields = found[2]
                for i = 1, #fields, 2 do
                  if fields[i] == 'job' then payload = fields[i + 1] break end
                end
              end
            end
            redis.call('XACK', KEYS[1], group, id)
            redis.call('XDEL', KEYS[1], id)
            if action == 'dead' then
              redis.call('XADD', KEYS[4], '*', 'job', payload, 'error', ARGV[14], 'at', ARGV[15])
            elseif action == 'ready' then
              redis.call('XADD', KEYS[1], '*', 'job', payload)
            elseif action == 'delay' then
              redis.call('ZADD', KEYS[3], ARGV[13], ARGV[12] .. '|' .. payload)
            end
            if ARGV[5] ~= '' then
              redis.call('XADD', KEYS[2], 'MAXLEN', '~', eventMaxLen(KEYS[2], ARGV[6]), '*', 'event', ARGV[5])
            end
            if ARGV[7] ~= '' and redis.call('EXISTS', KEYS[5]) == 1 then
              redis.call('HINCRBY', KEYS[5], ARGV[7], 1)
              redis.call('HSET', KEYS[5], 'endedAt', batchClock())
              if redis.call('PTTL', KEYS[5]) < tonumber(ARGV[8]) then redis.call('PEXPIRE', KEYS[5], ARGV[8]) end
            end
            return 1
            """)

}
