import DarkroomQueue
import DarkroomTestSupport
import Testing

@testable import DarkroomClient

@Suite("Looking a job up in the event stream")
struct JobLookupTests {
    typealias Kit = QueueTestKit

    @Test("A job's status is its latest event: running, retrying, ended, or not found")
    func jobLookup() async throws {
        let queue = MemoryQueue(configuration: JobQueueConfiguration(maxAttempts: 3))
        _ = try await queue.enqueue([Kit.job("run"), Kit.job("retry"), Kit.job("ok")])
        let deliveries = try await queue.reserve(consumer: "w", max: 3, wait: .zero)
        for delivery in deliveries {
            try await queue.publish([.started(job: delivery.job.id, batch: "b1", worker: "w", attempt: 1)])
        }
        let byID = Dictionary(uniqueKeysWithValues: deliveries.map { ($0.job.id.rawValue, $0) })
        _ = try await queue.retry(try #require(byID["retry"]), after: .seconds(600), error: JobError(code: "net.timeout", message: "slow"))
        _ = try await queue.acknowledge(try #require(byID["ok"]), outcome: .succeeded(Kit.result(output: "/cache/x")))

        guard case .running(let started) = try await JobLookup(job: JobID(rawValue: "run")!).status(on: queue) else {
            Issue.record("a started job was not running")
            return
        }
        #expect(started.worker == "w")
        guard case .retrying = try await JobLookup(job: JobID(rawValue: "retry")!).status(on: queue) else {
            Issue.record("a retried job was not retrying")
            return
        }
        guard case .ended(let ok) = try await JobLookup(job: JobID(rawValue: "ok")!).status(on: queue) else {
            Issue.record("a succeeded job had not ended")
            return
        }
        #expect(ok.type == .succeeded)
        #expect(ok.result?.output == "/cache/x")
        #expect(try await JobLookup(job: JobID(rawValue: "ghost")!).status(on: queue) == .notFound)
    }

    @Test("A UUIDv7 job id gives its creation time; other ids give none")
    func uuidTime() throws {
        let made = try #require(Timestamp(iso8601: "2025-03-01T12:34:56.789Z"))
        #expect(JobLookup.creationTime(of: JobID.make(now: made, using: SortableIDGenerator())) == made)
        #expect(JobLookup.creationTime(of: try #require(JobID(rawValue: "photos/cat.jpg"))) == nil)
        #expect(JobLookup.creationTime(of: try #require(JobID(rawValue: "123e4567-e89b-12d3-a456-426614174000"))) == nil)
    }
}
