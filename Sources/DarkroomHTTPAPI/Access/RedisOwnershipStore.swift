import DarkroomRedis
import DarkroomSystem

/// `OwnershipStore` in Redis: one string per job, `{p}:api:owner:job:<id>`, and per batch,
/// `{p}:api:owner:batch:<name>`, each holding the owner's key id and expiring with
/// `Ownership.lifetime` (a batch's owner is kept alive by every later submit of its owner).
///
/// One script records a request's batches and jobs, so a refused batch records nothing and two
/// keys racing for a new batch name cannot both own it.
public struct RedisOwnershipStore: OwnershipStore {
    public let client: RedisClient
    public let keyPrefix: String

    public init(client: RedisClient, keyPrefix: String = "darkroom") {
        self.client = client
        self.keyPrefix = keyPrefix
    }

    func jobKey(_ id: String) -> String { "\(keyPrefix):api:owner:job:\(id)" }
    func batchKey(_ name: String) -> String { "\(keyPrefix):api:owner:batch:\(name)" }
    /// The queue's batch counters (docs/queue.md, `:batch:<name>`): a batch that has them but no
    /// owner was made by the CLI.
    func queueBatchKey(_ name: String) -> String { "\(keyPrefix):batch:\(name)" }

    /// KEYS: N batch owner keys, the N queue batch keys, then the job owner keys. ARGV: owner,
    /// lifetime (ms), N, admin (1|0). Returns 0 when recorded, or the 1-based index of the first
    /// batch refused (then nothing is written).
    static let recordScript = RedisScript(
        """
        local owner = ARGV[1]
        local ttl = ARGV[2]
        local count = tonumber(ARGV[3])
        local admin = ARGV[4] == '1'
        if not admin then
          for i = 1, count do
            local held = redis.call('GET', KEYS[i])
            if held then
              if held ~= owner then return i end
            elseif redis.call('EXISTS', KEYS[count + i]) == 1 then
              return i
            end
          end
        end
        for i = 1, count do
          local held = redis.call('GET', KEYS[i])
          if not held then
            redis.call('SET', KEYS[i], owner, 'PX', ttl)
          elseif held == owner then
            redis.call('PEXPIRE', KEYS[i], ttl)
          end
        end
        for i = 2 * count + 1, #KEYS do
          redis.call('SET', KEYS[i], owner, 'NX', 'PX', ttl)
        end
        return 0
        """)

    public func record(owner: String, isAdmin: Bool, batches: [String], jobs: [String], lifetime: Duration) async throws -> String? {
        let keys = batches.map(batchKey) + batches.map(queueBatchKey) + jobs.map(jobKey)
        let reply = try await client.evalsha(
            Self.recordScript, keys: keys,
            arguments: [owner, String(max(lifetime.wholeMilliseconds, 1)), String(batches.count), isAdmin ? "1" : "0"])
        guard let refused = reply.integer else { throw RedisError.protocolError("the ownership script answered \(reply)") }
        return refused == 0 ? nil : batches[Int(refused) - 1]
    }

    public func owner(ofJob id: String) async throws -> String? {
        try await client.command(["GET", jobKey(id)]).string
    }

    public func owners(ofJobs ids: [String]) async throws -> [String?] {
        guard !ids.isEmpty else { return [] }
        let reply = try await client.command(["MGET"] + ids.map(jobKey))
        guard let values = reply.array, values.count == ids.count else {
            throw RedisError.protocolError("MGET answered \(reply)")
        }
        return values.map(\.string)
    }

    public func owner(ofBatch name: String) async throws -> String? {
        try await client.command(["GET", batchKey(name)]).string
    }
}
