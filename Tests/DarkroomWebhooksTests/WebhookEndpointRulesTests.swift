import Testing

@testable import DarkroomWebhooks

@Suite("Webhook endpoint names and URLs")
struct WebhookEndpointRulesTests {
    @Test("A URL must be http(s), name a host, and hold no spaces or control characters")
    func urlRules() {
        func problem(_ url: String) -> String? {
            WebhookEndpoint(name: "app", url: url, allowPrivateNetwork: false, liveSecrets: 1, createdAt: .now()).problem
        }
        #expect(problem("https://hooks.example.com/darkroom") == nil)
        #expect(problem("HTTP://10.0.0.5:8080/x?y=1") == nil)
        #expect(problem("https://user@[::1]:9000/") == nil)
        #expect(problem("HTTP://") != nil)
        #expect(problem("https://:443/path") != nil)
        #expect(problem("https:///path") != nil)
        #expect(problem("https://exa mple.com/") != nil)
        #expect(problem("https://example.com/\n") != nil)
        #expect(problem("ftp://example.com/") != nil)
    }
}
