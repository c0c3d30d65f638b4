import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

@Suite("Dead letters over HTTP: list, retry, purge (real Redis, real worker)", .serialized, .realTime)
struct DeadLetterAPIRealTimeTests {
    @Test("Garbage a worker dead-letters is listed with its code; retrying leaves it, purging removes it")
    func listRetryPurge() async throws {
        try await APIHarness.with { api in
            try await api.queue.enqueueRaw(Data("not a job".utf8))
            var listed: [[String: Any]] = []
            let deadline = ContinuousClock.now + .seconds(20)
            while listed.isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                listed = try APIHarness.object(try await api.http.get("/v1/dead-letters?limit=10"))["deadLetters"] as? [[String: Any]] ?? []
            }
            #expect(listed.count == 1)
            #expect((listed.first?["error"] as? [String: Any])?["code"] as? String == "queue.garbage")
            #expect(listed.first?["job"] == nil)
            #expect(try await api.http.get("/v1/dead-letters?limit=0").status == 422)

            let retried = try await api.post("/v1/dead-letters/retry", "{}")
            #expect(retried.status == 200)
            #expect(try APIHarness.object(retried)["retried"] as? Int == 0)
            let purged = try await api.http.perform("DELETE", "/v1/dead-letters")
            #expect(try APIHarness.object(purged)["purged"] as? Int == 1)
            #expect((try APIHarness.object(try await api.http.get("/v1/dead-letters"))["deadLetters"] as? [Any])?.isEmpty == true)
        }
    }
}
