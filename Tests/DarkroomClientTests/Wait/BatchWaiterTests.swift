import DarkroomQueue
import DarkroomSystem
import DarkroomTestSupport
import Testing

@testable import DarkroomClient

@Suite("Waiting for a batch: counts, failures, timeouts")
struct BatchWaiterTests {
    typealias Kit = QueueTestKit

    @Test("Waiting on a batch whose jobs all succeed reports every count and no failures")
    func waitAllSucceed() async throws {
        let queue = MemoryQueue()
        _ = try await queue.enqueue((1...3).map { Kit.job("j\($0)") })
        try await Kit.finish(queue) { _ in .succeeded(Kit.result()) }
        let seen = Locked<[BatchProgress]>([])
        let result = try #require(
            try await BatchWaiter(batch: "b1", timeout: .seconds(30))
                .wait(on: queue, onProgress: { progress in seen.withLock { $0.append(progress) } }, onFailure: { _ in }))
        #expect(result.progress == BatchProgress(total: 3, succeeded: 3))
        #expect(!result.timedOut)
        #expect(result.failures.isEmpty)
        #expect(result.progress.allSucceeded)
        #expect(seen.withLock { $0.last } == result.progress)
    }

    @Test("Failures before and during the wait are listed, oldest first, and the batch did not all succeed")
    func waitWithFailures() async throws {
        let queue = MemoryQueue()
        _ = try await queue.enqueue((1...4).map { Kit.job("j\($0)") })
        // Before the wait: j1 fails for good.
        try await Kit.finish(queue, count: 1) { _ in .failed(JobError(code: "image.corrupt", message: "bad bytes")) }
        let task = Task {
            try await BatchWaiter(batch: "b1", timeout: .seconds(60), readWait: .milliseconds(50))
                .wait(on: queue, onProgress: { _ in }, onFailure: { _ in })
        }
        // During the wait: j2 succeeds, j3 is dead-lettered, j4 is cancelled.
        try await Kit.finish(queue, count: 1) { _ in .succeeded(Kit.result()) }
        try await Kit.finish(queue, count: 1) { _ in nil }
        #expect(try await queue.cancel(batch: "b1") == 1)
        let result = try #require(try await task.value)
        #expect(result.progress == BatchProgress(total: 4, succeeded: 1, failed: 1, dead: 1, cancelled: 1))
        #expect(result.failures.map(\.job).sorted() == ["j1", "j3"])
        let j1 = try #require(result.failures.first { $0.job == "j1" })
        #expect(j1.type == "failed")
        #expect(j1.code == "image.corrupt")
        #expect(j1.message == "bad bytes")
        #expect(result.failures.first { $0.job == "j3" }?.type == "dead")
        #expect(!result.progress.allSucceeded)
    }

    @Test("Waiting times out while jobs remain, and an unknown batch is nil")
    func waitTimeoutAndUnknown() async throws {
        let queue = MemoryQueue()
        _ = try await queue.enqueue([Kit.job("j1")])
        let result = try #require(
            try await BatchWaiter(batch: "b1", timeout: .milliseconds(200), readWait: .milliseconds(50))
                .wait(on: queue, onProgress: { _ in }, onFailure: { _ in }))
        #expect(result.timedOut)
        #expect(result.progress.remaining == 1)
        #expect(!result.progress.isComplete)
        #expect(try await BatchWaiter(batch: "nope", timeout: .seconds(1)).wait(on: queue, onProgress: { _ in }, onFailure: { _ in }) == nil)
    }
}
