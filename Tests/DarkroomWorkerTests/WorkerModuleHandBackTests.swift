import DarkroomCore
import DarkroomQueue
import DarkroomTestSupport
import DarkroomWorker
import Foundation
import Testing

/// A worker without the HEIC module meets a HEIC source (`image.needs-module`): it hands the job
/// back requiring `decode:heic` when a live worker offers that, and fails it otherwise.
@Suite("Worker over a MemoryQueue: HEIC sources without the module")
struct WorkerModuleHandBackTests {
    private func heicSource(in dir: String) throws -> String {
        let fixture = PluginBuilds.repositoryRoot + "/Tests/Fixtures/HEIC/plain-64x43.heic"
        return try WorkerTestKit.write(Array(try Data(contentsOf: URL(fileURLWithPath: fixture))), to: "\(dir)/photo.heic")
    }

    @Test("With a live worker offering decode:heic, the job is handed back requiring it, as the same attempt, without an event")
    func handedBackForAWorkerWithTheModule() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try heicSource(in: dir)
        let queue = MemoryQueue()
        let able = WorkerInfo(
            name: "heic-worker", host: "h", pid: 1, concurrency: 1, processors: [:], capabilities: ["decode:heic"], version: "test",
            startedAt: .now())
        try await queue.heartbeat(able, ttl: .seconds(3600))
        let worker = Worker(
            queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: dir),
            configuration: WorkerTestKit.configuration(releaseDelay: .zero), logger: WorkerTestKit.silent)
        let running = WorkerTestKit.Running(worker)
        _ = try await queue.enqueue([WorkerTestKit.job(source)])
        // Once started and handed back, it stays ready: this worker does not offer what it now requires.
        #expect(
            await WorkerTestKit.eventually {
                let counts = try await queue.counts()
                let started = try await WorkerTestKit.events(on: queue).contains { $0.type == .started }
                return started && counts.readyTotal == 1 && counts.pending == 0
            })
        try await running.stop()

        let handed = try #require(try await queue.reserve(consumer: "heic-worker", max: 1, wait: .zero, offering: ["decode:heic"]).first)
        #expect(handed.job.requires == ["decode:heic"])
        #expect(handed.attempt == 1)
        let events = try await WorkerTestKit.events(on: queue)
        #expect(events.filter { $0.batch == "b" }.map(\.type) == [.batchEnqueued, .started])
        #expect(worker.jobsDone == 0)
    }

    @Test("With no live worker offering decode:heic, the job fails with image.needs-module")
    func failsWithoutAWorkerThatHasIt() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try heicSource(in: dir)
        let queue = MemoryQueue()
        let worker = Worker(
            queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: dir), configuration: WorkerTestKit.configuration(),
            logger: WorkerTestKit.silent)
        let running = WorkerTestKit.Running(worker)
        _ = try await queue.enqueue([WorkerTestKit.job(source)])
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()
        let failed = try #require(events.last)
        #expect(failed.type == .failed && failed.error?.code == "image.needs-module")
        #expect(failed.error?.message.contains("darkroom-heic.so") == true)
    }
}
