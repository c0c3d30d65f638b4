import DarkroomTestSupport
import Testing

@testable import DarkroomWebhooks

/// What every `WebhookEndpointStore` does, run by the memory and the Redis store's suites.
enum WebhookEndpointStoreContract {
    static func createListRotateRemove(_ store: any WebhookEndpointStore) async throws {
        let created = try await store.create(name: "orders", url: "https://hooks.example.com/a", allowPrivateNetwork: false)
        #expect(created.secret.hasPrefix("whsec_") && created.secret.count == 70)
        #expect(created.endpoint.liveSecrets == 1)
        #expect(try await store.secrets(for: "orders") == [created.secret])
        _ = try await store.create(name: "audit", url: "http://10.0.0.5/hook", allowPrivateNetwork: true)
        #expect(try await store.list().map(\.name) == ["audit", "orders"])
        #expect(try await store.endpoint(named: "audit")?.allowPrivateNetwork == true)

        let rotated = try await store.rotate(name: "orders")
        #expect(rotated.secret != created.secret && rotated.endpoint.liveSecrets == 2)
        #expect(try await store.secrets(for: "orders") == [created.secret, rotated.secret])
        #expect(try await store.endpoint(named: "orders")?.liveSecrets == 2)
        #expect(try await store.retireOldSecret(name: "orders").liveSecrets == 1)
        #expect(try await store.secrets(for: "orders") == [rotated.secret])

        #expect(try await store.remove(name: "orders"))
        #expect(try await !store.remove(name: "orders"))
        #expect(try await store.secrets(for: "orders").isEmpty)
        #expect(try await store.endpoint(named: "orders") == nil)
    }

    static func refusals(_ store: any WebhookEndpointStore) async throws {
        try await expectCode(.invalid) { _ = try await store.create(name: "bad name", url: "https://x.example.com/", allowPrivateNetwork: false) }
        try await expectCode(.invalid) { _ = try await store.create(name: "ftp", url: "ftp://x.example.com/", allowPrivateNetwork: false) }
        _ = try await store.create(name: "a", url: "https://x.example.com/", allowPrivateNetwork: false)
        try await expectCode(.conflict) { _ = try await store.create(name: "a", url: "https://y.example.com/", allowPrivateNetwork: false) }
        try await expectCode(.conflict) { _ = try await store.retireOldSecret(name: "a") }
        _ = try await store.rotate(name: "a")
        try await expectCode(.conflict) { _ = try await store.rotate(name: "a") }
        try await expectCode(.unknown) { _ = try await store.rotate(name: "missing") }
    }

    private static func expectCode(_ code: WebhookError.Code, _ body: () async throws -> Void) async throws {
        do {
            try await body()
            Issue.record("expected \(code.rawValue)")
        } catch let error as WebhookError {
            #expect(error.code == code)
        }
    }
}

@Suite("MemoryWebhookEndpointStore meets the endpoint store contract")
struct MemoryWebhookEndpointStoreTests {
    @Test("Endpoints are created, listed, rotated and removed") func lifecycle() async throws {
        try await WebhookEndpointStoreContract.createListRotateRemove(MemoryWebhookEndpointStore())
    }

    @Test("Bad names and URLs, taken names and wrong rotations are refused with their codes") func refusals() async throws {
        try await WebhookEndpointStoreContract.refusals(MemoryWebhookEndpointStore())
    }
}

@Suite("RedisWebhookEndpointStore on a real Redis meets the endpoint store contract", .realTime, .serialized)
struct RedisWebhookEndpointStoreRealTimeTests {
    @Test("Endpoints are created, listed, rotated and removed") func lifecycle() async throws {
        let fixture = try WebhookFixture()
        try await WebhookEndpointStoreContract.createListRotateRemove(fixture.endpoints)
    }

    @Test("Bad names and URLs, taken names and wrong rotations are refused with their codes") func refusals() async throws {
        let fixture = try WebhookFixture()
        try await WebhookEndpointStoreContract.refusals(fixture.endpoints)
    }
}
