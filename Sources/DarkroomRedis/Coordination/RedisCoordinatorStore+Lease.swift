import DarkroomFleetStatus
import DarkroomQueue

/// One coordinator at a time: the lease (`{p}:coordinator:lease`, a string with a time to live)
/// and the registration (`{p}:coordinator`, a hash) publishers read their stream cap from.
extension RedisCoordinatorStore {
    public func acquireCoordinatorLease(owner: String, ttl: Duration) async throws -> String {
        let reply = try await redis {
            try await self.eval(
                CoordinatorScripts.acquireLease, keys: [self.keys.coordinatorLease],
                arguments: ScriptArguments([owner, String(Self.milliseconds(ttl))]))
        }
        guard let holder = reply.string else { throw RedisStreamsQueue.queueError(.protocolError("the lease script answered \(reply)")) }
        return holder
    }

    public func releaseCoordinatorLease(owner: String) async throws {
        _ = try await redis {
            try await self.eval(CoordinatorScripts.releaseLease, keys: [self.keys.coordinatorLease], arguments: ScriptArguments([owner]))
        }
    }

    public func registerCoordinator(owner: String, streamCap: Int) async throws {
        _ = try await redis {
            try await self.eval(
                CoordinatorScripts.register, keys: [self.keys.coordinatorLease, self.keys.coordinator],
                arguments: ScriptArguments([
                    owner, String(max(streamCap, queue.configuration.eventRetention)),
                    String(Self.milliseconds(Self.registrationTTL)),
                ]))
        }
    }

    public func coordinatorRegistration() async throws -> CoordinatorRegistration? {
        let replies = try await redis {
            try await self.queue.client.pipeline([
                ["HMGET", self.keys.coordinator, "checkpoint", "cap", "updatedAt"], ["GET", self.keys.coordinatorLease],
            ])
        }
        for reply in replies { try Self.throwing(reply) }
        guard let fields = replies[0].array, fields.count == 3, let cap = fields[1].string.flatMap(Int.init) else { return nil }
        return CoordinatorRegistration(
            checkpoint: fields[0].string.map(EventCursor.init(rawValue:)), streamCap: cap, leaseHolder: replies[1].string,
            updatedAt: fields[2].string.flatMap(Int64.init).map(Timestamp.init(millisecondsSince1970:)))
    }
}

extension CoordinatorScripts {
    /// Takes or renews the lease. `KEYS`: lease. `ARGV`: owner, ttl (ms). Returns the holder after
    /// the call.
    static let acquireLease = RedisScript(
        """
        local holder = redis.call('GET', KEYS[1])
        if not holder or holder == ARGV[1] then
          redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
          return ARGV[1]
        end
        return holder
        """)

    /// Deletes the lease when `owner` holds it. `KEYS`: lease. `ARGV`: owner.
    static let releaseLease = RedisScript(
        """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """)

    /// Registers the coordinator. `KEYS`: lease, coordinator hash. `ARGV`: owner, cap,
    /// registration ttl (ms). Only the lease holder registers; returns 1 when it did.
    static let register = RedisScript(
        """
        if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
        redis.call('HSET', KEYS[2], 'cap', ARGV[2], 'owner', ARGV[1])
        redis.call('PEXPIRE', KEYS[2], ARGV[3])
        return 1
        """)
}
