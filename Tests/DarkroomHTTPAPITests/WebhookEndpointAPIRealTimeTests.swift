import DarkroomQueue
import DarkroomTestSupport
import DarkroomWebhooks
import Foundation
import Testing

@Suite("Webhook endpoints over HTTP: register, list, rotate, retire, remove (real Redis)", .serialized, .realTime)
struct WebhookEndpointAPIRealTimeTests {
    @Test("An admin registers an endpoint, sees its secret once, rotates, retires the old secret and removes it")
    func lifecycle() async throws {
        try await APIHarness.with(worker: false) { api in
            let created = try await api.post("/v1/webhooks", #"{"name": "app-hook", "url": "https://example.com/hook"}"#)
            #expect(created.status == 201)
            let secret = try #require(try APIHarness.object(created)["secret"] as? String)
            #expect(secret.hasPrefix("whsec_"))

            let listed = try await api.http.get("/v1/webhooks")
            #expect(listed.status == 200)
            #expect(!listed.text.contains(secret) && !listed.text.contains("whsec_"))
            let endpoints = try APIHarness.object(listed)["webhooks"] as? [[String: Any]]
            #expect(endpoints?.map { $0["name"] as? String } == ["app-hook"])
            #expect(endpoints?.first?["allowPrivateNetwork"] as? Bool == false)

            let rotated = try await api.post("/v1/webhooks/app-hook/rotate", "")
            #expect(rotated.status == 201)
            let second = try APIHarness.object(rotated)
            #expect((second["secret"] as? String).map { $0 != secret && $0.hasPrefix("whsec_") } == true)
            #expect((second["endpoint"] as? [String: Any])?["liveSecrets"] as? Int == 2)
            #expect(try await api.post("/v1/webhooks/app-hook/rotate", "").status == 409)

            let retired = try await api.post("/v1/webhooks/app-hook/retire-old", "")
            #expect(retired.status == 200)
            #expect(try APIHarness.object(retired)["liveSecrets"] as? Int == 1)
            #expect(try await api.post("/v1/webhooks/app-hook/retire-old", "").status == 409)

            #expect(try await api.http.perform("DELETE", "/v1/webhooks/app-hook").status == 200)
            #expect((try APIHarness.object(try await api.http.get("/v1/webhooks"))["webhooks"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("A taken name is 409, an unknown one 404, a bad URL 422, a non-admin key 403")
    func refusals() async throws {
        try await APIHarness.with(worker: false) { api in
            let body = #"{"name": "app-hook", "url": "https://example.com/hook", "allowPrivateNetwork": true}"#
            #expect(try await api.post("/v1/webhooks", body).status == 201)
            let duplicate = try await api.post("/v1/webhooks", body)
            #expect(duplicate.status == 409)
            #expect(duplicate.text.contains("webhook.conflict"))

            for path in ["/v1/webhooks/nobody/rotate", "/v1/webhooks/nobody/retire-old"] {
                let unknown = try await api.post(path, "")
                #expect(unknown.status == 404, "\(path)")
                #expect(unknown.text.contains("webhook.unknown"))
            }
            #expect(try await api.http.perform("DELETE", "/v1/webhooks/nobody").status == 404)
            #expect(try await api.post("/v1/webhooks/deliveries/no-such-delivery/redeliver", "").status == 404)
            #expect(try await api.post("/v1/webhooks", #"{"name": "x", "url": "ftp://example.com"}"#).status == 422)
            #expect(try await api.post("/v1/webhooks", #"{"name": "x", "url": "https://a", "secret": "s"}"#).status == 422)
            #expect(try await api.post("/v1/webhooks", "not json").status == 400)

            let reader = api.http(token: try await api.key("reader").token)
            #expect(try await reader.get("/v1/webhooks").status == 403)
            #expect(try await reader.post("/v1/webhooks", #"{"name": "mine", "url": "https://example.com"}"#).status == 403)
            #expect(try await reader.perform("DELETE", "/v1/webhooks/app-hook").status == 403)
            #expect(try await reader.post("/v1/webhooks/app-hook/rotate", "").status == 403)
            #expect(try await reader.get("/v1/webhooks/deliveries?failed=true").status == 403)
            #expect(try await api.http(token: nil).get("/v1/webhooks").status == 401)
        }
    }

    @Test("Deliveries are listed pending or failed, with the count a cap dropped, a page at a time; a bad query is 422")
    func deliveries() async throws {
        try await APIHarness.with(worker: false) { api in
            let pending = try await api.http.get("/v1/webhooks/deliveries")
            #expect(pending.status == 200)
            #expect((try APIHarness.object(pending)["deliveries"] as? [Any])?.isEmpty == true)
            #expect(try APIHarness.object(pending)["dropped"] == nil)
            let failed = try await api.http.get("/v1/webhooks/deliveries?failed=true&limit=5")
            #expect(try APIHarness.object(failed)["dropped"] as? Int == 0)
            #expect(try await api.http.get("/v1/webhooks/deliveries?limit=0").status == 422)
            #expect(try await api.http.get("/v1/webhooks/deliveries?failed=yes").status == 422)
            #expect(try await api.http.get("/v1/webhooks/deliveries?cursor=nothing").status == 422)

            for index in 0..<3 {
                try await RedisWebhookOutbox(client: api.client).add(
                    WebhookDelivery(id: "d\(index)", endpoint: "app", event: "job.succeeded", orderKey: "job:\(index)", createdAt: .now(), body: "{}"))
            }
            let first = try APIHarness.object(try await api.http.get("/v1/webhooks/deliveries?limit=2"))
            #expect((first["deliveries"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["d0", "d1"])
            let cursor = try #require(first["nextCursor"] as? String)
            let query = try #require(cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let second = try APIHarness.object(try await api.http.get("/v1/webhooks/deliveries?limit=2&cursor=\(query)"))
            #expect((second["deliveries"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["d2"])
            #expect(second["nextCursor"] is NSNull)
        }
    }
}
