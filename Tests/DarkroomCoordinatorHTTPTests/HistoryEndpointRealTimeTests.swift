import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

/// `GET /history`: the coordinator's per-minute series the dashboard's chart opens with.
@Suite("The coordinator's /history endpoint", .realTime)
struct HistoryEndpointRealTimeTests {
    @Test("Given jobs ended and folded, then /history holds them in the last hour's minutes, with the latency definition; it needs the token")
    func historyHoldsEndedJobs() async throws {
        let harness = try await CoordinatorHTTPHarness()
        do {
            _ = try await harness.queue.enqueue((1...3).map { QueueTestKit.job("h\($0)", batch: "history") })
            try await QueueTestKit.finish(harness.queue, count: 2, consumer: "w") { _ in .succeeded(QueueTestKit.result()) }
            try await QueueTestKit.finish(harness.queue, count: 1, consumer: "w") { _ in
                .failed(JobError(code: "decode.corrupt", message: "not an image"))
            }
            // batchEnqueued + 3 × (started + terminal).
            try await harness.waitForEvents(7)

            #expect(try await harness.http.get("/history").status == 401)
            let reply = try await harness.http.get("/history", headers: harness.bearer)
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
            #expect((body["latency"] as? String)?.contains("last attempt") == true)
            let minutes = try #require(body["minutes"] as? [[String: Any]])
            #expect(minutes.count == 60)
            #expect(minutes.compactMap { $0["ended"] as? Int }.reduce(0, +) == 3)
            #expect(minutes.compactMap { $0["timed"] as? Int }.reduce(0, +) == 3)
            #expect(minutes.contains { $0["p95Ms"] is Double })
            #expect(minutes.compactMap { ($0["failures"] as? [String: Int])?["decode.corrupt"] }.reduce(0, +) == 1)

            let short = try await harness.http.get("/history?minutes=5", headers: harness.bearer)
            let shortMinutes = try #require((try JSONSerialization.jsonObject(with: Data(short.body)) as? [String: Any])?["minutes"] as? [Any])
            #expect(shortMinutes.count == 5)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }
}
