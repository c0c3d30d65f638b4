import DarkroomQueue
import DarkroomTestSupport
import DarkroomWebhooks
import Testing

/// A job submitted over HTTP that names a webhook endpoint is subscribed to it before it is
/// enqueued, as `darkroom enqueue --webhook` does; an endpoint the key may not name, or one not
/// registered, refuses the request and enqueues nothing.
@Suite("Webhooks named by HTTP submits (real Redis)", .serialized, .realTime)
struct WebhookSubmitRealTimeTests {
    @Test("A granted, registered endpoint subscribes the job; an ungranted one is 403, an unregistered one 422, and neither enqueues")
    func webhookOnSubmit() async throws {
        try await APIHarness.with(worker: false) { api in
            let endpoints = RedisWebhookEndpointStore(client: api.client)
            _ = try await endpoints.create(name: APIHarness.grantedWebhook, url: "https://hooks.example.com/darkroom", allowPrivateNetwork: false)
            let source = try api.image("a.png")

            let accepted = try await api.post(
                "/v1/jobs", #"{"source": "\#(source)", "chain": "resize(10x10)", "id": "hooked", "webhook": "app-hook"}"#)
            #expect(accepted.status == 201, "\(accepted.text)")
            let subscribed = try await RedisWebhookSubscriptions(client: api.client).endpoints(for: [JobID(rawValue: "hooked")!])
            #expect(subscribed == [APIHarness.grantedWebhook])

            let ungranted = try await api.post(
                "/v1/jobs", #"{"source": "\#(source)", "chain": "resize(10x10)", "id": "other", "webhook": "someone-elses"}"#)
            #expect(ungranted.status == 403)
            #expect(ungranted.text.contains("apikey.webhook-not-granted"))

            let unregistered = try await api.post(
                "/v1/jobs", #"{"source": "\#(source)", "chain": "resize(10x10)", "id": "lost", "webhook": "unregistered"}"#)
            #expect(unregistered.status == 422)
            #expect(unregistered.text.contains("webhook.unknown"))

            let counts = try await api.queue.counts()
            #expect(counts.readyTotal == 1, "only the job with a registered, granted endpoint is queued")
        }
    }
}
