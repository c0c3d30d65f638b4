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

    @Test("Dead letters page by nextCursor; the last page's is null and more false; a bad cursor is 422")
    func pages() async throws {
        try await APIHarness.with(worker: false) { api in
            _ = try await api.queue.enqueue(["a", "b", "c"].map { QueueTestKit.job($0, batch: "buried") })
            for delivery in try await api.queue.reserve(consumer: "w", max: 3, wait: .zero) {
                _ = try await api.queue.deadLetter(delivery, error: JobError(code: "source.timeout", message: "slow"))
            }
            let first = try APIHarness.object(try await api.http.get("/v1/dead-letters?limit=2"))
            let firstJobs = (first["deadLetters"] as? [[String: Any]])?.compactMap { ($0["job"] as? [String: Any])?["id"] as? String }
            #expect(firstJobs == ["a", "b"])
            #expect(first["more"] as? Bool == true)
            let cursor = try #require(first["nextCursor"] as? String)
            let second = try APIHarness.object(try await api.http.get("/v1/dead-letters?limit=2&cursor=\(cursor)"))
            #expect((second["deadLetters"] as? [[String: Any]])?.compactMap { ($0["job"] as? [String: Any])?["id"] as? String } == ["c"])
            #expect(second["more"] as? Bool == false)
            #expect(second["nextCursor"] is NSNull)
            let bad = try await api.http.get("/v1/dead-letters?cursor=yesterday")
            #expect(bad.status == 422)
            #expect((try APIHarness.object(bad)["errors"] as? [[String: Any]])?.first?["code"] as? String == "api.invalid-field")
        }
    }
}
