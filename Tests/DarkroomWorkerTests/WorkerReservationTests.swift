import DarkroomPipeline
import DarkroomQueue
import DarkroomSystem
import DarkroomTestSupport
import DarkroomWorker
import Foundation
import Testing

/// How the worker reserves: the next job rides on the acknowledgement of the last (one queue call
/// per job for a worker running one at a time), `started` rides along when its work starts, and
/// no more jobs are held unstarted than `reserveAhead`.
@Suite("Worker over a MemoryQueue: reservation, started events and queue calls")
struct WorkerReservationTests {
    typealias Gate = WorkerLifecycleTests.Gate

    /// A pipeline with one CPU thread, as `darkroom worker --cpus 1` has.
    static func oneCPUPipeline(fileRoot: String? = nil, allowing origins: [String] = []) -> ImagePipeline {
        var configuration = ImagePipeline.Configuration()
        configuration.sourcePolicy.fileRoots = fileRoot.map { [$0] } ?? []
        configuration.sourcePolicy.allowedSourcePrefixes = origins.map { $0 + "/" }
        configuration.maxConcurrentProcessing = 1
        return configuration.build()
    }

    /// An HTTP source whose answers wait for the gate (20 s at most).
    static func gatedSource() throws -> (TestHTTPServer, Gate) {
        let jpeg = try WorkerTestKit.image()
        let gate = Gate()
        let source = try TestHTTPServer { _ in
            gate.wait()
            return .ok(jpeg)
        }
        return (source, gate)
    }

    @Test("Given 12 jobs and a worker running one at a time, it makes about one queue call per job, and each started precedes its terminal event")
    func oneCallPerJob() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let sources = try (0..<12).map { index in
            try WorkerTestKit.write(try WorkerTestKit.image(tint: UInt8(10 + index * 7)), to: "\(dir)/in/\(index).jpg")
        }
        let queue = FlakyQueue(MemoryQueue())
        _ = try await queue.enqueue(sources.map { WorkerTestKit.job($0) })
        let worker = Worker(
            queue: queue, pipeline: Self.oneCPUPipeline(fileRoot: "\(dir)/in"),
            configuration: WorkerTestKit.configuration(concurrency: 1), logger: WorkerTestKit.silent)
        let running = WorkerTestKit.Running(worker)
        let events = try await WorkerTestKit.finish("b", on: queue.inner)
        // Read before the idle worker's waiting reservations (one per `reserveWait`) add more.
        let calls = queue.jobCalls
        try await running.stop()

        // One reservation to begin, then one call per job: its acknowledgement with its started
        // event and the next job's reservation; at most one more (an idle reservation).
        #expect(calls <= 12 + 2, "\(calls) queue calls for 12 jobs")
        #expect(events.filter { $0.type == .succeeded }.count == 12)
        for job in Set(events.compactMap(\.job)) {
            #expect(events.filter { $0.job == job }.map(\.type) == [.started, .succeeded])
        }
    }

    @Test("Given 10 jobs whose downloads hang and a worker at -j 16 with reserveAhead 2, it holds 2 jobs; released, all succeed")
    func holdsOnlyReserveAheadUnstartedJobs() async throws {
        let (source, gate) = try Self.gatedSource()
        defer {
            gate.release()
            source.stop()
        }
        let queue = MemoryQueue()
        _ = try await queue.enqueue((0..<10).map { WorkerTestKit.job(source.url("/\($0).jpg")) })
        var configuration = WorkerTestKit.configuration(concurrency: 16)
        configuration.reserveAhead = 2
        let worker = Worker(
            queue: queue, pipeline: Self.oneCPUPipeline(allowing: [source.origin]), configuration: configuration,
            logger: WorkerTestKit.silent)
        let running = WorkerTestKit.Running(worker)
        #expect(await WorkerTestKit.eventually { try await queue.counts().pending == 2 })
        // Time for a worker that hoards to take more: it would hold 10 within milliseconds.
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await queue.counts().pending == 2)
        // None has started its work: no started event yet.
        #expect(!(try await WorkerTestKit.events(on: queue)).contains { $0.type == .started })
        gate.release()
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()
        #expect(events.filter { $0.type == .succeeded }.count == 10)
        #expect(events.filter { $0.type == .started }.count == 10)
    }

    @Test("A started event is timed when the job's work starts, after its download, not when it was reserved")
    func startedIsTimedAtWorkStart() async throws {
        let (source, gate) = try Self.gatedSource()
        defer {
            gate.release()
            source.stop()
        }
        let queue = MemoryQueue()
        _ = try await queue.enqueue([WorkerTestKit.job(source.url("/slow.jpg"))])
        let worker = Worker(
            queue: queue, pipeline: Self.oneCPUPipeline(allowing: [source.origin]),
            configuration: WorkerTestKit.configuration(concurrency: 1), logger: WorkerTestKit.silent)
        let running = WorkerTestKit.Running(worker)
        #expect(await WorkerTestKit.eventually { try await queue.counts().pending == 1 })
        try await Task.sleep(for: .milliseconds(300))
        let released = Timestamp.now()
        gate.release()
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()
        let started = try #require(events.first { $0.type == .started })
        let succeeded = try #require(events.first { $0.type == .succeeded })
        #expect(started.at >= released)
        #expect(started.at <= succeeded.at)
    }
}
