import DarkroomQueue
import DarkroomWorker
import Foundation
import Glibc
import Testing

@Suite("Worker outputs: hostile or changing output directories")
struct WorkerOutputSafetyTests {
    @Test("Given a FIFO planted under the result's name, the job does not hang: it succeeds under its job id's name")
    func fifoUnderPreferredNameDoesNotHang() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(), to: "\(dir)/in/cat.jpg")
        try FileManager.default.createDirectory(atPath: "\(dir)/out/b", withIntermediateDirectories: true)
        #expect(mkfifo("\(dir)/out/b/cat.webp", 0o644) == 0)
        let queue = MemoryQueue()
        let running = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: "\(dir)/in"),
                configuration: WorkerTestKit.configuration(outputRoots: ["\(dir)/out"]),
                logger: WorkerTestKit.silent))
        let job = WorkerTestKit.job(source, output: "\(dir)/out/b", format: "webp", id: JobID(rawValue: "job-1")!)
        _ = try await queue.enqueue([job])
        // The kit's usual bound: the defect is a hang, not slowness, and a tighter bound only measured
        // how loaded the machine was (a 50 ms job missed 10 s in the parallel pass).
        let events = try await WorkerTestKit.finish("b", on: queue)
        // Frees a reader blocked on the FIFO (the defect), so the worker can stop either way.
        let writer = open("\(dir)/out/b/cat.webp", O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
        try await running.stop()

        #expect(events.last?.type == .succeeded)
        #expect(events.last?.result?.output == "\(dir)/out/b/job-1.webp")
        #expect(try WorkerTestKit.decode("\(dir)/out/b/job-1.webp").bitmap.width == 40)
    }

    @Test("Given an output directory removed after an earlier job used it, the next job into it creates it again and succeeds")
    func removedOutputDirectoryIsRecreated() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(), to: "\(dir)/in/cat.jpg")
        let queue = MemoryQueue()
        let running = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: "\(dir)/in"),
                configuration: WorkerTestKit.configuration(outputRoots: ["\(dir)/out"]),
                logger: WorkerTestKit.silent))
        _ = try await queue.enqueue([WorkerTestKit.job(source, batch: "first", output: "\(dir)/out/nightly")])
        #expect(try await WorkerTestKit.finish("first", on: queue).last?.type == .succeeded)

        try FileManager.default.removeItem(atPath: "\(dir)/out/nightly")
        _ = try await queue.enqueue([WorkerTestKit.job(source, batch: "second", output: "\(dir)/out/nightly")])
        let second = try await WorkerTestKit.finish("second", on: queue)
        try await running.stop()

        #expect(second.last?.type == .succeeded, "\(String(describing: second.last?.error))")
        #expect(FileManager.default.fileExists(atPath: "\(dir)/out/nightly/cat.jpg"))
    }

    @Test("Given a symlink under the output root pointing outside, an output below it is refused and no directory is created outside the roots")
    func noDirectoriesCreatedThroughSymlinks() async throws {
        let fixture = try WorkerTestKit.SymlinkedOutputRoot()
        let (dir, source, queue, running) = (fixture.dir, fixture.source, fixture.queue, fixture.running)
        defer { WorkerTestKit.remove(dir) }
        _ = try await queue.enqueue([WorkerTestKit.job(source, output: "\(dir)/out/link/made/deeper")])
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()

        #expect(events.last?.error?.code == "output.not-allowed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/secret").isEmpty)
    }
}
