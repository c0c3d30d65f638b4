@testable import DarkroomCLI
import DarkroomQueue
import Foundation
import Synchronization
import Testing

@Suite("Queue commands' logic on the in-memory queue: wait, events, get, dlq, file copy")
struct QueueCLIMemoryQueueTests {
    typealias Kit = QueueCLITestKit

    @Test("Waiting on a batch whose jobs all succeed reports every count and no failures")
    func waitAllSucceed() async throws {
        let queue = MemoryQueue()
        _ = try await queue.enqueue((1...3).map { Kit.job("j\($0)") })
        try await Kit.finish(queue) { _ in .succeeded(Kit.result()) }
        let seen = Mutex<[BatchProgress]>([])
        let result = try #require(try await BatchWaiter(batch: "b1", timeout: .seconds(30))
            .wait(on: queue, onProgress: { progress in seen.withLock { $0.append(progress) } }, onFailure: { _ in }))
        #expect(result.progress == BatchProgress(total: 3, succeeded: 3))
        #expect(!result.timedOut)
        #expect(result.failures.isEmpty)
        #expect(WaitSummary(result).exitCode.rawValue == 0)
        #expect(seen.withLock { $0.last } == result.progress)
    }

    @Test("Failures before and during the wait are listed, oldest first, and the exit status is 1")
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
        #expect(WaitSummary(result).exitCode.rawValue == 1)
    }

    @Test("Waiting times out while jobs remain, and an unknown batch is nil")
    func waitTimeoutAndUnknown() async throws {
        let queue = MemoryQueue()
        _ = try await queue.enqueue([Kit.job("j1")])
        let result = try #require(try await BatchWaiter(batch: "b1", timeout: .milliseconds(200), readWait: .milliseconds(50))
            .wait(on: queue, onProgress: { _ in }, onFailure: { _ in }))
        #expect(result.timedOut)
        #expect(result.progress.remaining == 1)
        #expect(WaitSummary(result).exitCode.rawValue == 2)
        #expect(try await BatchWaiter(batch: "nope", timeout: .seconds(1)).wait(on: queue, onProgress: { _ in }, onFailure: { _ in }) == nil)
    }

    @Test("Reading events filters by batch and type, honours --limit and returns where it stopped")
    func eventReader() async throws {
        let queue = MemoryQueue()
        _ = try await queue.enqueue([Kit.job("j1"), Kit.job("k1", batch: "b2")])
        try await Kit.finish(queue) { _ in .succeeded(Kit.result()) }
        var all: [JobEvent] = []
        let end = try await EventReader(filter: EventFilter(), follow: false, limit: nil)
            .read(from: .start, on: queue, shouldStop: { false }) { all.append($0) }
        #expect(all.map(\.type) == [.batchEnqueued, .batchEnqueued, .started, .succeeded, .started, .succeeded])
        #expect(end == (try await queue.latestEventCursor()))

        var succeeded: [JobEvent] = []
        _ = try await EventReader(filter: EventFilter(batch: "b2", types: [.succeeded]), follow: false, limit: nil)
            .read(from: .start, on: queue, shouldStop: { false }) { succeeded.append($0) }
        #expect(succeeded.map(\.job?.rawValue) == ["k1"])

        var limited: [JobEvent] = []
        let stop = try await EventReader(filter: EventFilter(), follow: false, limit: 2)
            .read(from: .start, on: queue, shouldStop: { false }) { limited.append($0) }
        #expect(limited.count == 2)
        var rest: [JobEvent] = []
        _ = try await EventReader(filter: EventFilter(), follow: false, limit: nil)
            .read(from: stop, on: queue, shouldStop: { false }) { rest.append($0) }
        #expect(limited + rest == all)
    }

    @Test("Following stops when asked, after delivering the events that arrived meanwhile")
    func followStops() async throws {
        let queue = MemoryQueue()
        let stop = Atomic<Bool>(false)
        let seen = Mutex<[JobEventType]>([])
        let reader = EventReader(filter: EventFilter(), follow: true, limit: nil, pollWait: .milliseconds(50))
        let start = try await queue.latestEventCursor()
        let task = Task {
            try await reader.read(from: start, on: queue, shouldStop: { stop.load(ordering: .relaxed) }) { event in
                seen.withLock { $0.append(event.type) }
                if event.type == .succeeded { stop.store(true, ordering: .relaxed) }
            }
        }
        _ = try await queue.enqueue([Kit.job("j1")])
        try await Kit.finish(queue) { _ in .succeeded(Kit.result()) }
        _ = try await task.value
        #expect(seen.withLock { $0 } == [.batchEnqueued, .started, .succeeded])
    }

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
        let ok = try await JobLookup(job: JobID(rawValue: "ok")!).status(on: queue)
        #expect(try ResultFetch.result(of: ok, job: JobID(rawValue: "ok")!).output == "/cache/x")
        #expect(try await JobLookup(job: JobID(rawValue: "ghost")!).status(on: queue) == .notFound)
        #expect(throws: ResultFetch.Failure.self) { try ResultFetch.result(of: .notFound, job: JobID(rawValue: "ghost")!) }
    }

    @Test("get explains each way a job can lack a result")
    func resultFailures() throws {
        let id = try #require(JobID(rawValue: "j1"))
        func message(_ status: JobStatus) -> String {
            do {
                _ = try ResultFetch.result(of: status, job: id)
                return "no failure"
            } catch {
                return error.message
            }
        }
        let dead = JobEvent.dead(job: id, batch: "b", worker: nil, attempt: 5, error: JobError(code: "queue.stalled", message: "gone"))
        #expect(message(.ended(dead)).hasPrefix("job j1 did not succeed: it ended dead at "))
        #expect(message(.ended(dead)).hasSuffix("(queue.stalled: gone)"))
        let memoryOnly = JobEvent.succeeded(job: id, batch: "b", worker: "w", attempt: 1, result: Kit.result(output: nil))
        #expect(message(.ended(memoryOnly)).contains("only in the worker's memory"))
        #expect(message(.notFound).contains("unknown, still queued, or its events were trimmed"))
    }

    @Test("Dead letters are found by entry id or job id; unknown ids are reported")
    func deadLetterResolution() async throws {
        let queue = MemoryQueue()
        _ = try await queue.enqueue([Kit.job("j1"), Kit.job("j2")])
        try await Kit.finish(queue) { _ in nil }
        let letters = try await queue.deadLetters(limit: 10)
        #expect(letters.count == 2)
        let (entries, missing) = DeadLetterFormatting.resolve([letters[0].id, "j2", "j2", "nope"], in: letters)
        #expect(entries == [letters[0].id, letters[1].id])
        #expect(missing == ["nope"])
        let line = DeadLetterFormatting.line(letters[0])
        #expect(line.contains("job=j1 batch=b1 attempt=1 source=/data/a.jpg queue.test: buried by the test"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(try DeadLetterFormatting.json(letters[0]).utf8)) as? [String: Any])
        #expect((json["job"] as? [String: Any])?["id"] as? String == "j1")
        #expect((json["error"] as? [String: Any])?["code"] as? String == "queue.test")
    }

    @Test("An atomic copy writes the whole file, into a directory under its own name, and leaves no temporary")
    func atomicCopy() throws {
        let directory = try Kit.makeDirectory("copy")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/src.png"))
        let copied = try AtomicFileCopy.copy(directory + "/src.png", to: directory + "/dst.png")
        #expect(copied.bytes == bytes.count)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/dst.png"))) == bytes)
        try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: false)
        #expect(try AtomicFileCopy.copy(directory + "/src.png", to: directory + "/sub").path == directory + "/sub/src.png")
        #expect(throws: AtomicFileCopy.Failure.sourceMissing(directory + "/gone.png")) {
            try AtomicFileCopy.copy(directory + "/gone.png", to: directory + "/x.png")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["dst.png", "src.png", "sub"])
    }
}
