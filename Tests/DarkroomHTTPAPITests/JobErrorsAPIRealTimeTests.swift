import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomHTTPAPI

@Suite("A job's every error over HTTP: from a scan of the stream, then from the coordinator's projection (real Redis)", .serialized, .realTime)
struct JobErrorsAPIRealTimeTests {
    typealias Kit = QueueTestKit

    static func view(_ api: APIHarness, _ id: String) async throws -> [String: Any] {
        let reply = try await api.http.get("/v1/jobs/\(id)")
        #expect(reply.status == 200, "\(reply.text)")
        return try APIHarness.object(reply)
    }

    /// The job view's `errors` as (attempt, code, message); every one has its time.
    static func errors(_ api: APIHarness, _ id: String) async throws -> [String] {
        let errors = try #require(try await view(api, id)["errors"] as? [[String: Any]])
        #expect(errors.allSatisfy { ($0["at"] as? String).flatMap(Timestamp.init(iso8601:)) != nil })
        return errors.map { "\($0["attempt"] as? Int ?? 0) \($0["code"] as? String ?? "") \($0["message"] as? String ?? "")" }
    }

    @Test("A job that failed twice then succeeded, and one that failed then died, list every error oldest first either way")
    func everyErrorBothWays() async throws {
        try await APIHarness.with(worker: false) { api in
            try await Kit.run(Kit.job("ok", batch: "b"), on: api.queue, failures: 2, then: .succeeded)
            try await Kit.run(Kit.job("gone", batch: "b"), on: api.queue, failures: 1, then: .dead)
            try await Kit.run(Kit.job("fine", batch: "b"), on: api.queue, failures: 0, then: .succeeded)
            let ok = ["1 net.timeout try 1", "2 net.timeout try 2"]
            let gone = ["1 net.timeout try 1", "2 queue.test buried by the test"]

            // No coordinator: the scan of the stream gathers them.
            #expect(try await Self.errors(api, "ok") == ok)
            #expect(try await Self.errors(api, "gone") == gone)
            #expect(try await Self.errors(api, "fine").isEmpty)

            // A coordinator folds the events: its projection (read first, the stream only after its
            // checkpoint) answers the same.
            let store = RedisCoordinatorStore(queue: api.queue)
            #expect(try await store.acquireCoordinatorLease(owner: "test", ttl: .seconds(60)) == "test")
            try await store.registerCoordinator(owner: "test", streamCap: 100_000)
            let events = try await api.queue.readEvents(after: .start, limit: 1000, wait: .zero)
            #expect(try await store.applyProjections(events, after: nil, owner: "test") == .applied)
            #expect(try await Self.errors(api, "ok") == ok)
            #expect(try await Self.errors(api, "gone") == gone)
            #expect(try await Self.errors(api, "fine").isEmpty)
            let view = try await Self.view(api, "ok")
            #expect(view["state"] as? String == "succeeded")
            #expect(view["attempt"] as? Int == 3)
            #expect(view["errorsDropped"] == nil)
        }
    }
}
