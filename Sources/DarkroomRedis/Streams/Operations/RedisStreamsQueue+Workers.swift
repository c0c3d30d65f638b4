import DarkroomQueue
import Foundation

/// The worker registry: `{p}:worker:<name>` holds the WorkerInfo JSON with a `PX` ttl, and the
/// sorted set `{p}:workers` lists names by expiry so `liveWorkers` needs no `KEYS`/`SCAN`.
extension RedisStreamsQueue {
    public func heartbeat(_ worker: WorkerInfo, ttl: Duration) async throws {
        try Self.check(consumer: worker.name)
        let json = Array(try Self.json(worker))
        let ttlMilliseconds = Self.milliseconds(ttl)
        let expiry = clock.now().adding(ttl).millisecondsSince1970
        let commands: [[[UInt8]]] = [
            [Array("SET".utf8), Array(keys.worker(worker.name).utf8), json, Array("PX".utf8), Array(String(ttlMilliseconds).utf8)],
            ["ZADD", keys.workers, String(expiry), worker.name].map { Array($0.utf8) },
        ]
        try await redis {
            for reply in try await self.client.pipeline(commands) { try reply.throwingOnError() }
        }
    }

    /// Removes the registration, and the worker's consumer from the groups where it holds no
    /// pending entry (`StreamScripts.forgetConsumer`).
    public func removeWorker(named name: String) async throws {
        let commands = [["DEL", keys.worker(name)], ["ZREM", keys.workers, name]]
        try await redis {
            for reply in try await self.client.pipeline(commands) { try reply.throwingOnError() }
            if JobID.isAcceptable(name) {
                let lanes = try await self.capabilityLanes().map(self.keys.stream)
                _ = try await self.eval(
                    StreamScripts.forgetConsumer, keys: self.keys.streams + lanes,
                    arguments: ScriptArguments([RedisQueueKeys.group, name]))
            }
        }
    }

    /// Prunes expired names from `{p}:workers`, then reads the live ones' records (a record whose
    /// key expired before its score says is skipped).
    public func liveWorkers() async throws -> [WorkerInfo] {
        let now = String(clock.now().millisecondsSince1970)
        return try await redis {
            let replies = try await self.client.pipeline([
                ["ZREMRANGEBYSCORE", self.keys.workers, "-inf", now],
                ["ZRANGE", self.keys.workers, "0", "-1"],
            ])
            for reply in replies { try reply.throwingOnError() }
            let names = replies[1].array?.compactMap(\.string) ?? []
            guard !names.isEmpty else { return [] }
            let values = try await self.client.command(["MGET"] + names.map(self.keys.worker))
            let decoder = RecordJSON.decoder()
            let workers = (values.array ?? []).compactMap { value in
                value.bytes.flatMap { try? decoder.decode(WorkerInfo.self, from: Data($0)) }
            }
            return workers.sorted { $0.name < $1.name }
        }
    }
}

extension StreamScripts {
    /// Deletes a consumer from the group of each stream where it holds no pending entry, so the
    /// group's consumer list does not grow with every worker that ever ran (`host:pid` names).
    /// A consumer that still holds entries is kept: `XGROUP DELCONSUMER` would drop them from the
    /// pending list, and they would never be reclaimed.
    ///
    /// `KEYS`: the job streams (plain and capability lanes). `ARGV`: group, consumer. Returns how many groups it left.
    static let forgetConsumer = RedisScript(
        """
        local left = 0
        for i = 1, #KEYS do
          local ok, pending = pcall(redis.call, 'XPENDING', KEYS[i], ARGV[1], '-', '+', 1, ARGV[2])
          if ok and not pending[1] then
            redis.call('XGROUP', 'DELCONSUMER', KEYS[i], ARGV[1], ARGV[2])
            left = left + 1
          end
        end
        return left
        """)
}
