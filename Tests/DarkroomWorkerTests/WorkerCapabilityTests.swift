import DarkroomQueue
import DarkroomTestSupport
import DarkroomWorker
import Foundation
import Testing

@Suite("Workers leave jobs they cannot honour for workers that can")
struct WorkerCapabilityTests {
    @Test("Given a worker without output-name, then it runs the plain job and leaves the named one, which a current worker then writes under its name")
    func olderWorkerLeavesTheJob() async throws {
        let directory = try WorkerTestKit.makeDirectory("capabilities")
        defer { WorkerTestKit.remove(directory) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(), to: directory + "/cat.jpg")
        let out = directory + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let queue = MemoryQueue()
        var named = WorkerTestKit.job(source, batch: "b", output: out, format: "png", id: JobID(rawValue: "named-job")!)
        named.name = "{id}.{ext}"
        named.require(Capabilities.features(name: named.name))
        let plain = WorkerTestKit.job(source, batch: "b", output: out, format: "webp")
        _ = try await queue.enqueue([named, plain])

        var oldConfiguration = WorkerTestKit.configuration(name: "old", outputRoots: [directory])
        oldConfiguration.features = []
        let old = WorkerTestKit.Running(
            Worker(queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: directory), configuration: oldConfiguration, logger: WorkerTestKit.silent))
        #expect(await WorkerTestKit.eventually { try await WorkerTestKit.events(on: queue).contains { $0.type == .succeeded } })
        // Several reserve rounds pass; the named job is still ready, untouched.
        try await Task.sleep(for: .milliseconds(600))
        #expect(try await queue.counts().ready[.normal] == 1)
        // Its heartbeat says it honours nothing (polled: under load the first heartbeat can lag).
        #expect(await WorkerTestKit.eventually { try await queue.liveWorkers().contains { $0.name == "old" && $0.capabilities == [] } })
        try await old.stop()

        let current = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: directory),
                configuration: WorkerTestKit.configuration(name: "current", outputRoots: [directory]), logger: WorkerTestKit.silent))
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await current.stop()
        let succeeded = events.filter { $0.type == .succeeded }
        #expect(succeeded.count == 2)
        #expect(succeeded.first { $0.job == named.id }?.worker == "current")
        #expect(FileManager.default.fileExists(atPath: out + "/named-job.png"))
        #expect(FileManager.default.fileExists(atPath: out + "/cat.webp"))
    }
}
