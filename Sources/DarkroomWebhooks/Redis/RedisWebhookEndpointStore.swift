import DarkroomQueue
import DarkroomRedis
import Foundation

/// The fleet's webhook endpoints in Redis (`RedisWebhookKeys`): the record in one hash, the live
/// secrets in a list beside it, which only the sender reads.
public final class RedisWebhookEndpointStore: WebhookEndpointStore {
    public let client: RedisClient
    let keys: RedisWebhookKeys

    public init(client: RedisClient, keyPrefix: String = "darkroom") {
        self.client = client
        keys = RedisWebhookKeys(prefix: keyPrefix)
    }

    /// Stores the record and its first secret unless the name is taken: 1 stored, 0 taken.
    private static let createScript = RedisScript(
        """
        if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
        redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
        redis.call('DEL', KEYS[2])
        redis.call('RPUSH', KEYS[2], ARGV[3])
        return 1
        """)

    /// Rotation: ARGV[2] 'add' pushes a second secret (when one is live), 'retire' drops the older
    /// (when two are); the record's `liveSecrets` follows. Returns the record, 0 for a missing
    /// endpoint, -1 for the wrong number of live secrets.
    private static let rotateScript = RedisScript(
        """
        local record = redis.call('HGET', KEYS[1], ARGV[1])
        if not record then return 0 end
        local live = redis.call('LLEN', KEYS[2])
        if ARGV[2] == 'add' then
          if live ~= 1 then return -1 end
          redis.call('RPUSH', KEYS[2], ARGV[3])
        else
          if live ~= 2 then return -1 end
          redis.call('LPOP', KEYS[2])
        end
        local decoded = cjson.decode(record)
        decoded['liveSecrets'] = redis.call('LLEN', KEYS[2])
        record = cjson.encode(decoded)
        redis.call('HSET', KEYS[1], ARGV[1], record)
        return record
        """)

    public func create(name: String, url: String, allowPrivateNetwork: Bool) async throws -> WebhookEndpointSecret {
        let endpoint = WebhookEndpoint(name: name, url: url, allowPrivateNetwork: allowPrivateNetwork)
        if let problem = endpoint.problem { throw WebhookError(.invalid, problem) }
        let secret = WebhookSecret.generate()
        let record = String(decoding: try RecordJSON.encoder().encode(endpoint), as: UTF8.self)
        let reply = try await client.evalsha(
            Self.createScript, keys: [keys.endpoints, keys.secrets(name)], arguments: [name, record, secret])
        guard reply.integer == 1 else { throw WebhookError(.conflict, "a webhook endpoint named \(name) exists (remove it first)") }
        return WebhookEndpointSecret(endpoint: endpoint, secret: secret)
    }

    public func list() async throws -> [WebhookEndpoint] {
        let reply = try await client.command(["HVALS", keys.endpoints])
        return try (reply.array ?? []).compactMap { $0.string }.map(Self.decode).sorted { $0.name < $1.name }
    }

    public func endpoint(named name: String) async throws -> WebhookEndpoint? {
        guard let text = try await client.command(["HGET", keys.endpoints, name]).string else { return nil }
        return try Self.decode(text)
    }

    public func rotate(name: String) async throws -> WebhookEndpointSecret {
        let secret = WebhookSecret.generate()
        let endpoint = try await change(
            name: name, action: "add", secret: secret, wrongCount: "two secrets are live; retire the old one first (darkroom webhook retire-old \(name))")
        return WebhookEndpointSecret(endpoint: endpoint, secret: secret)
    }

    public func retireOldSecret(name: String) async throws -> WebhookEndpoint {
        try await change(name: name, action: "retire", secret: "", wrongCount: "only one secret is live; nothing to retire")
    }

    private func change(name: String, action: String, secret: String, wrongCount: String) async throws -> WebhookEndpoint {
        let reply = try await client.evalsha(
            Self.rotateScript, keys: [keys.endpoints, keys.secrets(name)], arguments: [name, action, secret])
        if let text = reply.string { return try Self.decode(text) }
        if reply.integer == -1 { throw WebhookError(.conflict, "webhook endpoint \(name): \(wrongCount)") }
        throw WebhookError(.unknown, "no webhook endpoint is named \(name) (darkroom webhook list)")
    }

    public func remove(name: String) async throws -> Bool {
        let replies = try await client.pipeline([["HDEL", keys.endpoints, name], ["DEL", keys.secrets(name)]])
        return (try replies[0].throwingOnError().integer ?? 0) == 1
    }

    public func secrets(for name: String) async throws -> [String] {
        try await client.command(["LRANGE", keys.secrets(name), "0", "-1"]).throwingOnError().array?.compactMap(\.string) ?? []
    }

    static func decode(_ text: String) throws -> WebhookEndpoint {
        try RecordJSON.decoder().decode(WebhookEndpoint.self, from: Data(text.utf8))
    }
}
