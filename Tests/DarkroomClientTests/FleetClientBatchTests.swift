import DarkroomClient
import DarkroomQueue
import DarkroomTestSupport
import Testing

/// The queue runs on a manual clock, so nothing here waits on wall-clock time: the test acts as the
/// fleet and ends each job by driving the queue.
@Suite("FleetClient: waiting for, looking up and cancelling jobs")
struct FleetClientBatchTests {
    typealias Kit = QueueTestKit

    @Test("Given a batch being followed, when the fleet ends its jobs, then wait returns the counts and the failures")
    func waitReturnsWhenTheBatchEnds() async throws {
        let queue = MemoryQueue(clock: ManualQueueClock())
        let client = FleetClient(queue: queue)
        _ = try await queue.enqueue((1...3).map { Kit.job("j\($0)") })
        let (updates, update) = AsyncStream<BatchProgress>.makeStream()
        let waiting = Task { () -> (BatchWaitResult?, [String]) in
            var reported: [String] = []
            let result = try await client.wait(
                for: "b1", onProgress: { update.yield($0) },
                onFailure: { reported.append($0.job) })
            update.finish()
            return (result, reported)
        }
        var progress = updates.makeAsyncIterator()
        // The first count comes once the wait follows the stream: every later event reaches it.
        #expect(await progress.next() == BatchProgress(total: 3))

        try await Kit.finish(queue, count: 1) { _ in .succeeded(Kit.result()) }
        try await Kit.finish(queue, count: 1) { _ in .failed(JobError(code: "image.corrupt", message: "bad bytes")) }
        try await Kit.finish(queue, count: 1) { _ in nil }
        let (waited, reported) = try await waiting.value

        let result = try #require(waited)
        #expect(result.progress == BatchProgress(total: 3, succeeded: 1, failed: 1, dead: 1))
        #expect(!result.timedOut)
        #expect(result.failures.map(\.job) == ["j2", "j3"])
        #expect(result.failures.map(\.type) == ["failed", "dead"])
        #expect(result.failures.map(\.code) == ["image.corrupt", "queue.test"])
        // Failures are reported live as they are read; any read only after the end are in the result.
        #expect(Set(reported).isSubset(of: ["j2", "j3"]))
        var last = BatchProgress(total: 3)
        while let next = await progress.next() { last = next }
        #expect(last == result.progress)
    }

    @Test("Given unfinished jobs, when the timeout has passed, then wait says so with the counts so far")
    func waitTimesOut() async throws {
        let queue = MemoryQueue(clock: ManualQueueClock())
        let client = FleetClient(queue: queue)
        _ = try await queue.enqueue([Kit.job("j1"), Kit.job("j2")])
        try await Kit.finish(queue, count: 1) { _ in .succeeded(Kit.result()) }

        let result = try #require(try await client.wait(for: "b1", timeout: .zero))

        #expect(result.timedOut)
        #expect(result.progress == BatchProgress(total: 2, succeeded: 1))
        #expect(result.failures.isEmpty)
        #expect(try await client.wait(for: "never-enqueued", timeout: .zero) == nil)
    }

    @Test("Given a job enqueued through the client, when it is queued, running and done, then lookup follows it")
    func lookupFollowsAJob() async throws {
        // The lookup starts its scan at the time in the job's UUIDv7 id, which the client makes from
        // the wall clock: the queue's events must carry wall-clock times too.
        let queue = MemoryQueue()
        let client = FleetClient(queue: queue)
        let defaults = EnqueueDefaults(chain: "blur(2)", batch: "b1", workingDirectory: "/in")
        let id = try #require(try await client.enqueue([JobRequest(source: "a.jpg")], defaults: defaults).jobs.first?.id)
        #expect(try await client.lookup(id) == .notFound)

        let delivery = try #require(try await queue.reserve(consumer: "w1", max: 1, wait: .zero).first)
        try await queue.publish([.started(job: id, batch: "b1", worker: "w1", attempt: 1)])
        guard case .running(let started) = try await client.lookup(id) else {
            Issue.record("a started job was not running")
            return
        }
        #expect(started.worker == "w1")

        _ = try await queue.acknowledge(delivery, outcome: .succeeded(Kit.result(output: "/cache/a")))
        guard case .ended(let ended) = try await client.lookup(id) else {
            Issue.record("a finished job had not ended")
            return
        }
        #expect(ended.type == .succeeded)
        #expect(ended.result?.output == "/cache/a")
    }

    @Test("Given queued and running jobs, when the batch is cancelled, then only the queued ones are dropped")
    func cancelDropsQueuedJobs() async throws {
        let queue = MemoryQueue(clock: ManualQueueClock())
        let client = FleetClient(queue: queue)
        _ = try await queue.enqueue((1...4).map { Kit.job("j\($0)") })
        _ = try await queue.reserve(consumer: "w1", max: 1, wait: .zero)

        #expect(try await client.cancel(jobs: [try #require(JobID(rawValue: "j2")), try #require(JobID(rawValue: "ghost"))]) == 1)
        #expect(try await client.cancel(batch: "b1") == BatchCancellation(batch: "b1", cancelled: 2, running: 1))
        #expect(try await client.cancel(batch: "b1") == BatchCancellation(batch: "b1", cancelled: 0, running: 1))
        #expect(try await client.cancel(batch: "never-enqueued") == nil)
        #expect(try await queue.batchProgress("b1") == BatchProgress(total: 4, cancelled: 3))
    }
}
