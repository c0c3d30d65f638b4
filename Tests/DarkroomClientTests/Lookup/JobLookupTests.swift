import DarkroomFleetStatus
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

    @Test("A scan gathers every attempt's error of the job, oldest first: failed twice then succeeded, or dead; the newest 20")
    func everyError() async throws {
        let clock = ManualQueueClock()
        let queue = MemoryQueue(configuration: JobQueueConfiguration(maxAttempts: 30), clock: clock)
        let at = clock.now()
        try await Kit.run(Kit.job("ok"), on: queue, failures: 2, then: .succeeded, clock: clock)
        try await Kit.run(Kit.job("gone"), on: queue, failures: 1, then: .dead, clock: clock)
        try await Kit.run(Kit.job("many"), on: queue, failures: 23, then: .succeeded)

        let ok = try await JobLookup(job: JobID(rawValue: "ok")!).detail(on: queue)
        guard case .ended(let latest) = ok.status else {
            Issue.record("the job had not ended")
            return
        }
        #expect(latest.type == .succeeded)
        #expect(
            ok.errors.errors == [
                JobAttemptError(attempt: 1, error: JobError(code: "net.timeout", message: "try 1"), at: at),
                JobAttemptError(attempt: 2, error: JobError(code: "net.timeout", message: "try 2"), at: at.adding(.seconds(1))),
            ])
        let gone = try await JobLookup(job: JobID(rawValue: "gone")!).detail(on: queue).errors.errors
        #expect(gone.map(\.attempt) == [1, 2])
        #expect(gone.map(\.error.code) == ["net.timeout", "queue.test"])
        let many = try await FleetClient(queue: queue).detail(JobID(rawValue: "many")!).errors
        #expect(many.errors.map(\.attempt) == Array(4...23))
        #expect(many.dropped == 3)
        #expect(try await JobLookup(job: JobID(rawValue: "ghost")!).detail(on: queue) == JobDetail(status: .notFound))
    }

    @Test("A UUIDv7 job id gives its creation time; other ids give none")
    func uuidTime() throws {
        let made = try #require(Timestamp(iso8601: "2025-03-01T12:34:56.789Z"))
        #expect(JobLookup.creationTime(of: JobID.make(now: made, using: SortableIDGenerator())) == made)
        #expect(JobLookup.creationTime(of: try #require(JobID(rawValue: "photos/cat.jpg"))) == nil)
        #expect(JobLookup.creationTime(of: try #require(JobID(rawValue: "123e4567-e89b-12d3-a456-426614174000"))) == nil)
    }

    @Test("A source finds the latest of its --id-from-source jobs when no job has it as its whole id")
    func lookupBySource() async throws {
        let queue = MemoryQueue()
        let client = FleetClient(queue: queue)
        var defaults = EnqueueDefaults(chain: "blur(1)", batch: "b1", workingDirectory: "/data")
        defaults.idFromSource = true
        _ = try await client.enqueue([JobRequest(source: "a.jpg"), JobRequest(source: "a.jpg", chain: "blur(2)")], defaults: defaults)
        let deliveries = try await queue.reserve(consumer: "w", max: 2, wait: .zero)
        #expect(deliveries.count == 2)
        for delivery in deliveries {
            _ = try await queue.acknowledge(delivery, outcome: .succeeded(Kit.result(output: "/cache/" + delivery.job.chain)))
        }
        guard case .ended(let latest) = try await client.lookup(JobID(rawValue: "/data/a.jpg")!) else {
            Issue.record("the source's jobs were not found")
            return
        }
        #expect(latest.job == deliveries[1].job.id)
        #expect(latest.result?.output == "/cache/" + deliveries[1].job.chain)
        #expect(try await client.lookup(deliveries[0].job.id) != .notFound)
        #expect(try await client.lookup(JobID(rawValue: "/data/b.jpg")!) == .notFound)
    }
}
