import DarkroomAPIKeys
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomHTTPAPI

@Suite("API keys on the job API: authentication, scopes, grants, ownership, rate limits (real Redis)", .serialized, .realTime)
struct APIKeyAccessRealTimeTests {
    static func code(_ reply: HTTPTestClient.Reply) throws -> String? {
        (try APIHarness.object(reply)["errors"] as? [[String: Any]])?.first?["code"] as? String
    }

    static let delayed = #"{"batch": "a-batch", "chain": "downsample(40x40)", "delay": 3600, "jobs": [{"source": "https://example.com/a.jpg", "id": "a-1"}]}"#

    @Test("Without a token, or with one no key has, every /v1 route answers 401 with WWW-Authenticate; the OpenAPI document needs none")
    func unauthenticated() async throws {
        try await APIHarness.with(worker: false) { api in
            for token in [nil, "nope", "dk_AAAAAAAA_" + String(repeating: "a", count: 32)] {
                let reply = try await api.http(token: token).get("/v1/jobs/anything")
                #expect(reply.status == 401)
                #expect(reply.header("WWW-Authenticate") == "Bearer")
                #expect(try Self.code(reply) == "apikey.unauthenticated")
            }
            let submit = try await api.http(token: nil).post("/v1/jobs", #"{"source": "https://example.com/a.jpg", "chain": "blur(1)"}"#)
            #expect(submit.status == 401)
            #expect(try await api.queue.readEvents(after: .start, limit: 10, wait: .zero).isEmpty)
            #expect(try await api.http(token: nil).get("/v1/openapi.json").status == 200)
        }
    }

    @Test("A revoked key's token is refused by the running API within 5 s")
    func revocation() async throws {
        try await APIHarness.with(worker: false) { api in
            let (id, token) = try await api.key("soon revoked")
            #expect(try await api.http(token: token).get("/v1/dead-letters").status == 200)
            // Revoked by another process's store: the API's cache must expire on its own.
            try await RedisAPIKeyStore(client: api.client).revoke(id: id)
            let start = ContinuousClock.now
            var status = 200
            while status != 401, ContinuousClock.now - start < .seconds(6) {
                status = try await api.http(token: token).get("/v1/dead-letters").status
                if status != 401 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(status == 401)
            #expect(ContinuousClock.now - start <= .seconds(5))
        }
    }

    @Test("A read-only key cannot submit (403 apikey.scope-missing); a source outside a key's grants is 403 with its place; nothing is enqueued")
    func scopesAndGrants() async throws {
        try await APIHarness.with(worker: false) { api in
            let (_, reader) = try await api.key("reader", scopes: [.read])
            let refused = try await api.http(token: reader).post("/v1/batches", Self.delayed)
            #expect(refused.status == 403)
            #expect(try Self.code(refused) == "apikey.scope-missing")

            let (_, narrow) = try await api.key("narrow", sources: ["https://images.example.com/uploads/"])
            let body = #"""
                {"batch": "grants", "chain": "blur(1)", "jobs": [
                  {"source": "https://images.example.com/uploads/a.jpg"}, {"source": "https://elsewhere.example.com/b.jpg"}]}
                """#
            let outside = try await api.http(token: narrow).post("/v1/batches", body)
            #expect(outside.status == 403, "\(outside.text)")
            let error = try #require((try APIHarness.object(outside)["errors"] as? [[String: Any]])?.first)
            #expect(error["code"] as? String == "apikey.source-not-granted")
            #expect(error["location"] as? String == "jobs:2")
            let file = try await api.http(token: narrow).post("/v1/jobs", #"{"source": "/etc/passwd", "chain": "blur(1)"}"#)
            #expect(try Self.code(file) == "apikey.source-not-granted")

            #expect(try await api.queue.batchProgress("a-batch") == nil)
            #expect(try await api.queue.batchProgress("grants") == nil)
            #expect(try await api.queue.readEvents(after: .start, limit: 10, wait: .zero).isEmpty)
            // Reading and acting on dead letters: `read` lists, only `admin` retries or purges.
            #expect(try await api.http(token: reader).get("/v1/dead-letters").status == 200)
            let retry = try await api.http(token: reader).post("/v1/dead-letters/retry", "{}")
            #expect(retry.status == 403)
            #expect(try Self.code(retry) == "apikey.scope-missing")
            #expect(try await api.http(token: reader).perform("DELETE", "/v1/dead-letters").status == 403)
        }
    }

    @Test("A key without admin gets 404 for another key's job and batch, and cannot add to its batch; the owner and admin see them")
    func ownership() async throws {
        try await APIHarness.with(worker: false) { api in
            let (_, owner) = try await api.key("owner")
            let (_, other) = try await api.key("other")
            #expect(try await api.http(token: owner).post("/v1/batches", Self.delayed).status == 201)

            #expect(try await api.http(token: owner).get("/v1/batches/a-batch").status == 200)
            for (method, path) in [("GET", "/v1/batches/a-batch"), ("DELETE", "/v1/batches/a-batch"), ("DELETE", "/v1/jobs/a-1")] {
                let reply = try await api.http(token: other).perform(method, path)
                #expect(reply.status == 404, "\(method) \(path)")
                #expect(try Self.code(reply) == "api.not-found")
            }
            let intrude = try await api.http(token: other).post("/v1/batches", Self.delayed.replacingOccurrences(of: "a-1", with: "b-1"))
            #expect(intrude.status == 409)
            #expect(try Self.code(intrude) == "api.batch-not-owned")
            #expect(try await api.queue.batchProgress("a-batch")?.total == 1)
            // An admin key adds to any batch; the batch keeps its first owner.
            #expect(try await api.post("/v1/batches", Self.delayed.replacingOccurrences(of: "a-1", with: "c-1")).status == 201)
            #expect(try await api.queue.batchProgress("a-batch")?.total == 2)
            #expect(try await api.http(token: owner).get("/v1/batches/a-batch").status == 200)

            let cancelled = try await api.http(token: owner).perform("DELETE", "/v1/jobs/a-1")
            #expect(cancelled.status == 200)
            #expect(try APIHarness.object(cancelled)["cancelled"] as? Bool == true)
            #expect(try await api.http(token: owner).get("/v1/jobs/a-1").status == 200)
            #expect(try await api.http(token: other).get("/v1/jobs/a-1").status == 404)
            #expect(try await api.http(token: other).get("/v1/jobs/a-1/output").status == 404)
            #expect(try APIHarness.object(try await api.http.get("/v1/jobs/a-1"))["state"] as? String == "cancelled")
            #expect(try await api.http.get("/v1/batches/a-batch").status == 200)
        }
    }

    @Test("A key past its rate limit gets 429 with Retry-After")
    func rateLimit() async throws {
        try await APIHarness.with(worker: false) { api in
            let (_, token) = try await api.key("slow", rateLimit: APIRateLimit(perSecond: 0.1, burst: 2))
            #expect(try await api.http(token: token).get("/v1/dead-letters").status == 200)
            #expect(try await api.http(token: token).get("/v1/dead-letters").status == 200)
            let limited = try await api.http(token: token).get("/v1/dead-letters")
            #expect(limited.status == 429)
            #expect(try Self.code(limited) == "apikey.rate-limited")
            let seconds = try #require(limited.header("Retry-After").flatMap(Int.init))
            #expect((1...10).contains(seconds))
        }
    }

    @Test("CORS: a preflight from a listed origin gets the methods and headers, another origin 403; without --cors-origin, no CORS headers")
    func cors() async throws {
        let preflight = [("Access-Control-Request-Method", "POST"), ("Access-Control-Request-Headers", "authorization, content-type")]
        try await APIHarness.with(worker: false, corsOrigins: ["https://app.example.com"]) { api in
            let allowed = try await api.http(token: nil).perform("OPTIONS", "/v1/jobs", headers: [("Origin", "https://app.example.com")] + preflight)
            #expect(allowed.status == 204)
            #expect(allowed.header("Access-Control-Allow-Origin") == "https://app.example.com")
            #expect(allowed.header("Access-Control-Allow-Methods")?.contains("POST") == true)
            let headers = allowed.header("Access-Control-Allow-Headers") ?? ""
            #expect(["Authorization", "Content-Type", "Idempotency-Key"].allSatisfy(headers.contains))

            let refused = try await api.http(token: nil).perform("OPTIONS", "/v1/jobs", headers: [("Origin", "https://evil.example.com")] + preflight)
            #expect(refused.status == 403)
            #expect(refused.header("Access-Control-Allow-Origin") == nil)
            #expect(try Self.code(refused) == "api.origin-not-allowed")

            let read = try await api.http.get("/v1/dead-letters", headers: [("Origin", "https://app.example.com")])
            #expect(read.status == 200)
            #expect(read.header("Access-Control-Allow-Origin") == "https://app.example.com")
            let unlisted = try await api.http.get("/v1/dead-letters", headers: [("Origin", "https://evil.example.com")])
            #expect(unlisted.header("Access-Control-Allow-Origin") == nil)
        }
        try await APIHarness.with(worker: false) { api in
            let off = try await api.http(token: nil).perform("OPTIONS", "/v1/jobs", headers: [("Origin", "https://app.example.com")] + preflight)
            #expect(off.header("Access-Control-Allow-Origin") == nil)
        }
    }
}
