import DarkroomClient
import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomHTTPAPI

@Suite("A batch's jobs over HTTP: paged, by state, from the coordinator's index (real Redis, real projection)", .serialized, .realTime)
struct BatchJobsAPIRealTimeTests {
    /// Six jobs j1…j6 submitted into `paged`, as the API's key.
    static let submit =
        #"{"batch": "paged", "chain": "blur(1)", "jobs": ["#
        + (1...6).map { #"{"source": "https://example.com/\#($0).jpg", "id": "j\#($0)"}"# }.joined(separator: ", ") + "]}"

    /// Ends j1–j3 (succeeded), j4 (failed for good) and j5 (dead-lettered), starts j6, as a worker
    /// would; then folds every event with the coordinator's projection script, as a coordinator does.
    static func workAndProject(_ api: APIHarness) async throws {
        try await QueueTestKit.finish(api.queue, count: 5, consumer: "w") { job in
            switch job.id.rawValue {
            case "j1", "j2", "j3": .succeeded(QueueTestKit.result())
            case "j4": .failed(JobError(code: "image.corrupt", message: "bad bytes"))
            default: nil
            }
        }
        let running = try await api.queue.reserve(consumer: "w", max: 1, wait: .zero)
        try await api.queue.publish([.started(job: running[0].job.id, batch: "paged", worker: "w", attempt: running[0].attempt)])
        let store = RedisCoordinatorStore(queue: api.queue)
        #expect(try await store.acquireCoordinatorLease(owner: "test", ttl: .seconds(60)) == "test")
        try await store.registerCoordinator(owner: "test", streamCap: 100_000)
        let events = try await api.queue.readEvents(after: .start, limit: 1000, wait: .zero)
        #expect(try await store.applyProjections(events, after: nil, owner: "test") == .applied)
    }

    static func page(_ api: APIHarness, _ query: String) async throws -> [String: Any] {
        let reply = try await api.http.get("/v1/batches/paged/jobs" + query)
        #expect(reply.status == 200, "\(reply.text)")
        return try APIHarness.object(reply)
    }

    static func ids(_ page: [String: Any]) -> [String] {
        (page["jobs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test("Before any coordinator every job lists as queued in submit order; after the fold each has the state GET /v1/jobs/{id} reports")
    func statesFollowTheProjection() async throws {
        try await APIHarness.with(worker: false) { api in
            #expect(try await api.post("/v1/batches", Self.submit).status == 201)
            let before = try await Self.page(api, "")
            #expect(Self.ids(before) == (1...6).map { "j\($0)" })
            #expect((before["jobs"] as? [[String: Any]])?.allSatisfy { $0["state"] as? String == "queued" && $0["attempts"] as? Int == 0 } == true)
            #expect(before["asOf"] is NSNull && before["nextCursor"] is NSNull && before["state"] is NSNull)

            try await Self.workAndProject(api)
            let after = try await Self.page(api, "")
            #expect(after["asOf"] is String)
            let jobs = try #require(after["jobs"] as? [[String: Any]])
            #expect(jobs.compactMap { $0["state"] as? String } == ["succeeded", "succeeded", "succeeded", "failed", "dead", "running"])
            for job in jobs {
                let id = try #require(job["id"] as? String)
                let single = try APIHarness.object(try await api.http.get("/v1/jobs/\(id)"))
                #expect(job["state"] as? String == single["state"] as? String)
                #expect(job["attempts"] as? Int == single["attempt"] as? Int)
                #expect(job["updatedAt"] as? String == single["updatedAt"] as? String)
            }
            #expect(Self.ids(try await Self.page(api, "?state=succeeded")) == ["j1", "j2", "j3"])
            #expect(Self.ids(try await Self.page(api, "?state=dead")) == ["j5"])
            #expect(Self.ids(try await Self.page(api, "?state=queued")).isEmpty)
            #expect(try await Self.page(api, "?state=running")["state"] as? String == "running")

            // The client library answers the same, for the coordinator's dashboard.
            let client = FleetClient(queue: api.queue)
            let page = try #require(try await client.jobs(inBatch: "paged", state: .failed))
            #expect(page.jobs.map(\.id.rawValue) == ["j4"])
            #expect(page.jobs.first?.attempts == 1)
            #expect(try await client.jobs(inBatch: "never") == nil)
        }
    }

    @Test("Pages of 4 then 2, over every state and over one, follow each other by nextCursor; bad queries are 422, unknown batches 404")
    func pagesAndRefusals() async throws {
        try await APIHarness.with(worker: false) { api in
            #expect(try await api.post("/v1/batches", Self.submit).status == 201)
            try await Self.workAndProject(api)
            let first = try await Self.page(api, "?limit=4")
            #expect(Self.ids(first) == ["j1", "j2", "j3", "j4"])
            let cursor = try #require(first["nextCursor"] as? String)
            let second = try await Self.page(api, "?limit=4&cursor=\(cursor)")
            #expect(Self.ids(second) == ["j5", "j6"])
            #expect(second["nextCursor"] is NSNull)

            let one = try await Self.page(api, "?state=succeeded&limit=2")
            #expect(Self.ids(one) == ["j1", "j2"])
            let rest = try await Self.page(api, "?state=succeeded&limit=2&cursor=\(try #require(one["nextCursor"] as? String))")
            #expect(Self.ids(rest) == ["j3"])
            #expect(rest["nextCursor"] is NSNull)

            for query in ["?state=finished", "?cursor=abc", "?cursor=-1", "?limit=0", "?limit=1001"] {
                let reply = try await api.http.get("/v1/batches/paged/jobs" + query)
                #expect(reply.status == 422, "\(query)")
                #expect((try APIHarness.object(reply)["errors"] as? [[String: Any]])?.first?["code"] as? String == "api.invalid-field")
            }
            #expect(try await api.http.get("/v1/batches/never/jobs").status == 404)
            // A key without admin sees only its own batches: another key's is unknown to it.
            let (_, reader) = try await api.key("reader")
            #expect(try await api.http(token: reader).get("/v1/batches/paged/jobs").status == 404)
        }
    }
}
