import DarkroomSystem

/// The sender's copy of each endpoint and its live secrets, read from the store at most once per
/// `timeToLive` per endpoint instead of twice per delivery: at 1,000 deliveries a second those
/// reads were two of the sender's Redis round trips each (docs/benchmarks.md, "HTTP API").
///
/// A change to an endpoint (a rotated or retired secret, a removal) reaches the sender within
/// `timeToLive` (1 s in the notifier, as docs/http-api.md states). The secrets live only in this
/// process's memory, as they did for the length of one request before.
final class WebhookEndpointCache: Sendable {
    struct Entry: Sendable {
        /// nil: no endpoint has that name (removed).
        var endpoint: WebhookEndpoint?
        var secrets: [String]
        var readAt: ContinuousClock.Instant
    }

    let store: any WebhookEndpointStore
    let timeToLive: Duration
    private let entries = Locked<[String: Entry]>([:])

    init(store: any WebhookEndpointStore, timeToLive: Duration) {
        self.store = store
        self.timeToLive = timeToLive
    }

    /// The endpoint named `name` and its live secrets, as read at most `timeToLive` ago.
    func lookup(_ name: String) async throws -> (endpoint: WebhookEndpoint?, secrets: [String]) {
        let now = ContinuousClock.now
        if let entry = entries.withLock({ $0[name] }), now - entry.readAt < timeToLive {
            return (entry.endpoint, entry.secrets)
        }
        let endpoint = try await store.endpoint(named: name)
        let secrets = endpoint == nil ? [] : try await store.secrets(for: name)
        let entry = Entry(endpoint: endpoint, secrets: secrets, readAt: now)
        entries.withLock { entries in
            // Endpoints come and go: drop what has expired rather than keep every name ever seen.
            if entries.count > 1024 { entries = entries.filter { now - $0.value.readAt < timeToLive } }
            entries[name] = entry
        }
        return (endpoint, secrets)
    }
}
