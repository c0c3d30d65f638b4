import DarkroomTestSupport
import Testing

@testable import DarkroomWebhooks

/// The sender reads an endpoint and its secrets at most once per time-to-live, and sees a
/// rotation or a removal within it.
@Suite("The sender's endpoint cache", .realTime, .serialized)
struct WebhookEndpointCacheTests {
    @Test("A rotated secret is used within the time-to-live; before it, the copy read stands")
    func rotation() async throws {
        let store = MemoryWebhookEndpointStore()
        let first = try await store.create(name: "app", url: "https://app.example.com/hooks", allowPrivateNetwork: false)
        let cache = WebhookEndpointCache(store: store, timeToLive: .milliseconds(300))
        #expect(try await cache.lookup("app").secrets == [first.secret])
        let second = try await store.rotate(name: "app")
        #expect(try await cache.lookup("app").secrets == [first.secret])
        try await Task.sleep(for: .milliseconds(400))
        #expect(try await cache.lookup("app").secrets == [first.secret, second.secret])
        _ = try await store.retireOldSecret(name: "app")
        try await Task.sleep(for: .milliseconds(400))
        #expect(try await cache.lookup("app").secrets == [second.secret])
    }

    @Test("A removed endpoint is seen as removed within the time-to-live")
    func removal() async throws {
        let store = MemoryWebhookEndpointStore()
        _ = try await store.create(name: "app", url: "https://app.example.com/hooks", allowPrivateNetwork: false)
        let cache = WebhookEndpointCache(store: store, timeToLive: .milliseconds(300))
        #expect(try await cache.lookup("app").endpoint?.name == "app")
        _ = try await store.remove(name: "app")
        try await Task.sleep(for: .milliseconds(400))
        let after = try await cache.lookup("app")
        #expect(after.endpoint == nil)
        #expect(after.secrets.isEmpty)
    }

    @Test("The notifier's default time-to-live is the documented 1 s")
    func documentedDefault() {
        #expect(WebhookNotifier.Configuration(name: "n").endpointCacheTTL == .seconds(1))
    }
}
