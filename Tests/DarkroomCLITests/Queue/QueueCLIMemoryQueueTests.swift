import DarkroomClient
import DarkroomFleetStatus
import DarkroomQueue
import DarkroomSystem
import Foundation
import Synchronization
import Testing

@testable import DarkroomCLI

@Suite("Queue commands' logic on the in-memory queue: events, get, dlq, file copy")
struct QueueCLIMemoryQueueTests {
    typealias Kit = QueueCLITestKit

    @Test("Reading events filters by batch and type, honours --limit and returns where it stopped")
    func eventReader() async throws {
        let queue = MemoryQueue()
        _ = try await queue.enqueue([Kit.job("j1"), Kit.job("k1", batch: "b2")])
        try await Kit.finish(queue) { _ in .succeeded(Kit.result()) }
        var all: [JobEvent] = []
        let end = try await EventReader(filter: EventFilter(), follow: false, limit: nil)
            .read(from: .beginning, on: queue, shouldStop: { false }, emit: { all.append($0) })
        #expect(all.map(\.type) == [.batchEnqueued, .batchEnqueued, .started, .succeeded, .started, .succeeded])
        #expect(end == (try await queue.latestEventCursor()))

        var succeeded: [JobEvent] = []
        _ = try await EventReader(filter: EventFilter(batch: "b2", types: [.succeeded]), follow: false, limit: nil)
            .read(from: .beginning, on: queue, shouldStop: { false }, emit: { succeeded.append($0) })
        #expect(succeeded.map(\.job?.rawValue) == ["k1"])

        var limited: [JobEvent] = []
        let stop = try await EventReader(filter: EventFilter(), follow: false, limit: 2)
            .read(from: .beginning, on: queue, shouldStop: { false }, emit: { limited.append($0) })
        #expect(limited.count == 2)
        var rest: [JobEvent] = []
        _ = try await EventReader(filter: EventFilter(), follow: false, limit: nil)
            .read(from: .after(try #require(stop)), on: queue, shouldStop: { false }, emit: { rest.append($0) })
        #expect(limited + rest == all)
    }

    @Test("Following stops when asked, after delivering the events that arrived meanwhile")
    func followStops() async throws {
        let queue = MemoryQueue()
        let stop = Atomic<Bool>(false)
        let seen = Locked<[JobEventType]>([])
        let reader = EventReader(filter: EventFilter(), follow: true, limit: nil, pollWait: .milliseconds(50))
        let start = try await queue.latestEventCursor()
        let task = Task {
            try await reader.read(from: .after(start), on: queue, shouldStop: { stop.load(ordering: .relaxed) }) { event in
                seen.withLock { $0.append(event.type) }
                if event.type == .succeeded { stop.store(true, ordering: .relaxed) }
            }
        }
        _ = try await queue.enqueue([Kit.job("j1")])
        try await Kit.finish(queue) { _ in .succeeded(Kit.result()) }
        _ = try await task.value
        #expect(seen.withLock { $0 } == [.batchEnqueued, .started, .succeeded])
    }

    @Test("get takes the result from a job's succeeded event")
    func resultOfSuccess() throws {
        let id = try #require(JobID(rawValue: "ok"))
        let event = JobEvent.succeeded(job: id, batch: "b1", worker: "w", attempt: 1, result: Kit.result(output: "/cache/x"))
        #expect(try ResultFetch.result(of: .ended(event), job: id, searched: .projections).output == "/cache/x")
    }

    @Test("get explains each way a job can lack a result")
    func resultFailures() throws {
        let id = try #require(JobID(rawValue: "j1"))
        func message(_ status: JobStatus, searched: JobSearch = .stream(coordinatorRegistered: false)) -> String {
            do {
                _ = try ResultFetch.result(of: status, job: id, searched: searched)
                return "no failure"
            } catch {
                return error.message
            }
        }
        let dead = JobEvent.dead(job: id, batch: "b", worker: nil, attempt: 5, error: JobError(code: "queue.stalled", message: "gone"))
        #expect(message(.ended(dead)).hasPrefix("job j1 did not succeed: it ended dead at "))
        #expect(message(.ended(dead)).hasSuffix("(queue.stalled: gone)"))
        let cancelled = JobEvent.cancelled(job: id, batch: "b", attempt: 1, source: "https://u:p@e.com/a.png?sig=s", chain: "blur(2)")
        #expect(message(.ended(cancelled)).hasSuffix("it ended cancelled at \(cancelled.at.iso8601); source https://***@e.com/a.png?sig=***, chain blur(2)"))
        let memoryOnly = JobEvent.succeeded(job: id, batch: "b", worker: "w", attempt: 1, result: Kit.result(output: nil))
        #expect(message(.ended(memoryOnly)).contains("only in the worker's memory"))
        #expect(message(.notFound).contains("unknown, still queued, or its events were trimmed"))
        #expect(message(.notFound).contains("no coordinator is registered"))
    }

    @Test("get says where a job without events was looked for: a coordinator's projections, or the stream with or without one")
    func notFoundByWhereItWasSought() throws {
        let id = try #require(JobID(rawValue: "ghost"))
        func message(_ registration: CoordinatorRegistration?) -> String {
            do {
                _ = try ResultFetch.result(of: .notFound, job: id, searched: JobSearch(registration))
                return "no failure"
            } catch {
                return error.message
            }
        }
        let folded = CoordinatorRegistration(checkpoint: EventCursor(rawValue: "1-0"), streamCap: 1000, leaseHolder: "c", updatedAt: nil)
        let fresh = CoordinatorRegistration(checkpoint: nil, streamCap: 1000, leaseHolder: "c", updatedAt: nil)
        #expect(JobSearch(folded) == .projections)
        #expect(JobSearch(fresh) == .stream(coordinatorRegistered: true))
        #expect(JobSearch(nil) == .stream(coordinatorRegistered: false))
        #expect(message(folded).hasPrefix("job ghost has no events: it is unknown, still queued, or its last event is more than 7 days old"))
        #expect(!message(folded).contains("coordinator the stream") && !message(folded).contains("no coordinator"))
        #expect(message(fresh).contains("the coordinator has not read the stream yet"))
        #expect(message(nil).contains("no coordinator is registered"))
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
