import DarkroomHTTPAPI
import DarkroomTestSupport
import Foundation
import Testing

@Suite("Idempotency-Key on submits (real Redis)", .serialized, .realTime)
struct IdempotencyRealTimeTests {
    static let body = #"{"source": "https://example.com/a.jpg", "chain": "downsample(40x40)", "batch": "idem", "delay": 3600}"#

    @Test("The same key and body twice: the same answer, replayed, and one job; another body with the key: 422")
    func sameKeySameAnswer() async throws {
        try await APIHarness.with(worker: false) { api in
            let key = [("Idempotency-Key", "upload-42")]
            let first = try await api.post("/v1/jobs", Self.body, headers: key)
            #expect(first.status == 201, "\(first.text)")
            let second = try await api.post("/v1/jobs", Self.body, headers: key)
            #expect(second.status == 201)
            #expect(second.body == first.body)
            #expect(second.header("Idempotent-Replayed") == "true")
            #expect(try await api.queue.batchProgress("idem")?.total == 1)

            let other = try await api.post("/v1/jobs", Self.body.replacingOccurrences(of: "a.jpg", with: "b.jpg"), headers: key)
            #expect(other.status == 422)
            #expect((try APIHarness.object(other)["errors"] as? [[String: Any]])?.first?["code"] as? String == "api.idempotency-key-reused")
            #expect(try await api.queue.batchProgress("idem")?.total == 1)
        }
    }

    @Test("A key whose first request is unanswered answers 409; a refused request's 422 is kept and replayed")
    func inFlightAndRefusals() async throws {
        try await APIHarness.with(worker: false) { api in
            let store = RedisIdempotencyStore(client: api.client)
            let fingerprint = IdempotencyKeys.fingerprint(endpoint: "POST /v1/jobs", body: Array(Self.body.utf8))
            #expect(try await store.claim(scope: api.keyID, key: "busy", fingerprint: fingerprint) == .claimed)
            let busy = try await api.post("/v1/jobs", Self.body, headers: [("Idempotency-Key", "busy")])
            #expect(busy.status == 409)
            #expect(busy.header("Retry-After") == "1")

            let refused = #"{"source": "https://example.com/a.jpg", "chain": "nope(1)"}"#
            let first = try await api.post("/v1/jobs", refused, headers: [("Idempotency-Key", "bad-chain")])
            let second = try await api.post("/v1/jobs", refused, headers: [("Idempotency-Key", "bad-chain")])
            #expect(first.status == 422 && second.status == 422)
            #expect(second.body == first.body && second.header("Idempotent-Replayed") == "true")
            #expect(try await api.post("/v1/jobs", Self.body, headers: [("Idempotency-Key", "has space")]).status == 400)
        }
    }
}
