import DarkroomFleetStatus
import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Testing

@testable import DarkroomCoordinator

/// A job's every attempt's error in the coordinator's projection (`JobProjection.errors`), folded
/// by a real coordinator over a real redis-server from what the queue's operations published.
@Suite("Coordinator projections keep every error of a job")
struct JobErrorProjectionTests {
    typealias Kit = QueueTestKit

    @Test("Errors of attempts that failed twice then succeeded, or died, are kept in order; the newest 20, the rest counted")
    func everyErrorInOrder() async throws {
        let fleet = try ProjectionTests.Fleet(maxAttempts: 30)
        defer { fleet.close() }
        let at = fleet.clock.now()
        try await Kit.run(Kit.job("ok", batch: "b"), on: fleet.queue, failures: 2, then: .succeeded, clock: fleet.clock)
        try await Kit.run(Kit.job("gone", batch: "b"), on: fleet.queue, failures: 2, then: .dead, clock: fleet.clock)
        // 51 events: the test coordinator's pages of 7 fold several of its errors at once.
        try await Kit.run(Kit.job("many", batch: "b"), on: fleet.queue, failures: 25, then: .succeeded, clock: fleet.clock)
        try await Kit.run(Kit.job("fine", batch: "b"), on: fleet.queue, failures: 0, then: .succeeded)

        try await fleet.catchUp(fleet.coordinator("c1"))

        let ok = try #require(try await fleet.store.jobProjection(JobID(rawValue: "ok")!))
        #expect(ok.latest.type == .succeeded)
        #expect(
            ok.errors.errors == [
                JobAttemptError(attempt: 1, error: JobError(code: "net.timeout", message: "try 1"), at: at),
                JobAttemptError(attempt: 2, error: JobError(code: "net.timeout", message: "try 2"), at: at.adding(.seconds(1))),
            ])
        #expect(ok.errors.dropped == 0)

        let gone = try #require(try await fleet.store.jobProjection(JobID(rawValue: "gone")!))
        #expect(gone.latest.type == .dead)
        #expect(gone.errors.errors.map(\.attempt) == [1, 2, 3])
        #expect(gone.errors.errors.map(\.error.code) == ["net.timeout", "net.timeout", "queue.test"])
        #expect(gone.errors.errors.first?.at == at.adding(.seconds(2)))

        let many = try #require(try await fleet.store.jobProjection(JobID(rawValue: "many")!))
        #expect(many.errors.errors.map(\.attempt) == Array(6...25))
        #expect(many.errors.errors.map(\.error.message) == (6...25).map { "try \($0)" })
        #expect(many.errors.dropped == 5)

        // A job that never failed pays for no list.
        #expect(try await fleet.store.jobProjection(JobID(rawValue: "fine")!)?.errors == JobErrorHistory())
    }
}
