import DarkroomQueue
import DarkroomTestSupport
import DarkroomWorker
import Foundation
import Testing

@Suite("A host that does not resolve: retried once, no sooner than the minimum delay, then no such host")
struct WorkerUnresolvedHostTests {
    @Test(
        "Given a source whose host never resolves, then the job fails transiently with source.unresolved, then for good with source.no-such-host after the minimum delay"
    )
    func secondLookupFailsForGood() async throws {
        let origin = "http://no-such-host.invalid"
        let queue = MemoryQueue(configuration: JobQueueConfiguration(maxAttempts: 5))
        var configuration = WorkerTestKit.configuration()
        configuration.unresolvedRetryDelay = .milliseconds(300)
        let running = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(allowing: [origin]), configuration: configuration,
                logger: WorkerTestKit.silent))
        _ = try await queue.enqueue([WorkerTestKit.job(origin + "/a.jpg")])
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()

        let failures = events.filter { $0.type == .failed }
        #expect(failures.map(\.willRetry) == [true, false])
        #expect(failures.map { $0.error?.code } == ["source.unresolved", "source.no-such-host"])
        #expect(failures.last?.error?.message.contains("no such host") == true)
        #expect(failures.last?.attempt == 2)
        // The second lookup came no sooner than the minimum delay after the first.
        if failures.count == 2 {
            #expect(failures[1].at.duration(since: failures[0].at) >= .milliseconds(300))
        }
    }
}
