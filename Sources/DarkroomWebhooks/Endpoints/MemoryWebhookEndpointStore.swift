import DarkroomQueue
import DarkroomSystem

/// Webhook endpoints in this process's memory, for tests and embedded use: the same contract as
/// `RedisWebhookEndpointStore` (WebhookEndpointStoreContract runs on both).
public final class MemoryWebhookEndpointStore: WebhookEndpointStore {
    private let state = Locked<[String: (endpoint: WebhookEndpoint, secrets: [String])]>([:])

    public init() {}

    public func create(name: String, url: String, allowPrivateNetwork: Bool) async throws -> WebhookEndpointSecret {
        let endpoint = WebhookEndpoint(name: name, url: url, allowPrivateNetwork: allowPrivateNetwork)
        if let problem = endpoint.problem { throw WebhookError(.invalid, problem) }
        let secret = WebhookSecret.generate()
        let added = state.withLock { endpoints in
            guard endpoints[name] == nil else { return false }
            endpoints[name] = (endpoint, [secret])
            return true
        }
        guard added else { throw WebhookError(.conflict, "a webhook endpoint named \(name) exists (remove it first)") }
        return WebhookEndpointSecret(endpoint: endpoint, secret: secret)
    }

    public func list() async throws -> [WebhookEndpoint] {
        state.withLock { $0.values.map(\.endpoint) }.sorted { $0.name < $1.name }
    }

    public func endpoint(named name: String) async throws -> WebhookEndpoint? {
        state.withLock { $0[name]?.endpoint }
    }

    public func rotate(name: String) async throws -> WebhookEndpointSecret {
        let secret = WebhookSecret.generate()
        let endpoint = try change(name, liveBefore: 1, "two secrets are live; retire the old one first (darkroom webhook retire-old \(name))") {
            $0.append(secret)
        }
        return WebhookEndpointSecret(endpoint: endpoint, secret: secret)
    }

    public func retireOldSecret(name: String) async throws -> WebhookEndpoint {
        try change(name, liveBefore: 2, "only one secret is live; nothing to retire") { $0.removeFirst() }
    }

    /// Applies `edit` to the secrets when `liveBefore` are live, keeping `liveSecrets` in step.
    private func change(
        _ name: String, liveBefore: Int, _ wrongCount: String, _ edit: (inout [String]) -> Void
    ) throws(WebhookError) -> WebhookEndpoint {
        let outcome: Result<WebhookEndpoint, WebhookError> = state.withLock { endpoints in
            guard var entry = endpoints[name] else {
                return .failure(WebhookError(.unknown, "no webhook endpoint is named \(name) (darkroom webhook list)"))
            }
            guard entry.secrets.count == liveBefore else { return .failure(WebhookError(.conflict, "webhook endpoint \(name): \(wrongCount)")) }
            edit(&entry.secrets)
            entry.endpoint.liveSecrets = entry.secrets.count
            endpoints[name] = entry
            return .success(entry.endpoint)
        }
        return try outcome.get()
    }

    public func remove(name: String) async throws -> Bool {
        state.withLock { $0.removeValue(forKey: name) != nil }
    }

    public func secrets(for name: String) async throws -> [String] {
        state.withLock { $0[name]?.secrets ?? [] }
    }
}
