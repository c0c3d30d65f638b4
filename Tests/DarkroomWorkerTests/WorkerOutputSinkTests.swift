import DarkroomOutput
import DarkroomQueue
import DarkroomTestSupport
import DarkroomWorker
import Foundation
import Testing

/// The worker stores outputs only through the `OutputSink` its configuration gives it: with a
/// `MemorySink` no file is written, and the event reports the sink's location and checksum.
@Suite("Worker over an injected output sink")
struct WorkerOutputSinkTests {
    @Test("Given a MemorySink, a job's output goes to the sink under the source's name, with the sink's location and SHA-256 in the event")
    func storesThroughTheSink() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(width: 120, height: 80), to: "\(dir)/in/cat.jpg")
        let sink = MemorySink(allowedPrefixes: ["bucket/"])
        var configuration = WorkerTestKit.configuration()
        configuration.outputs = sink
        let queue = MemoryQueue()
        let running = WorkerTestKit.Running(
            Worker(queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: "\(dir)/in"), configuration: configuration, logger: WorkerTestKit.silent))
        _ = try await queue.enqueue([
            WorkerTestKit.job(source, output: "bucket/thumbs", format: "webp"),
            WorkerTestKit.job(source, output: "elsewhere", format: "webp"),
        ])
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()

        let result = try #require(events.first { $0.type == .succeeded }?.result)
        #expect(result.output == "memory:bucket/thumbs/cat.webp")
        let stored = try #require(sink.bytes(at: "memory:bucket/thumbs/cat.webp"))
        #expect(result.bytes == stored.count)
        #expect(result.sha256 == StoredOutput.sha256(of: stored))
        #expect(sink.locations == ["memory:bucket/thumbs/cat.webp"])
        // The sink's refusal reaches the job as its code, permanently.
        let failed = try #require(events.first { $0.type == .failed })
        #expect(failed.error?.code == "output.not-allowed")
        #expect(failed.willRetry == false)
    }

    @Test("Given another job's different output under the source's name, the result is stored under the job id's name")
    func fallsBackToTheJobID() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(width: 120, height: 80), to: "\(dir)/in/cat.jpg")
        let sink = MemorySink()
        _ = try await sink.store([1, 2, 3], named: "cat.webp", in: "out", onConflict: .replace)
        var configuration = WorkerTestKit.configuration()
        configuration.outputs = sink
        let queue = MemoryQueue()
        let running = WorkerTestKit.Running(
            Worker(queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: "\(dir)/in"), configuration: configuration, logger: WorkerTestKit.silent))
        let job = WorkerTestKit.job(source, output: "out", format: "webp")
        _ = try await queue.enqueue([job])
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()

        let result = try #require(events.first { $0.type == .succeeded }?.result)
        #expect(result.output == "memory:out/\(job.id.rawValue).webp")
        #expect(sink.bytes(at: "memory:out/cat.webp") == [1, 2, 3])
    }

    @Test("Given a source without a usable name, the result takes the job id's name, replacing what an earlier attempt left there")
    func namelessSourceTakesTheJobID() async throws {
        let image = try WorkerTestKit.image(width: 120, height: 80)
        let source = "data:image/jpeg;base64," + Data(image).base64EncodedString()
        let sink = MemorySink()
        var configuration = WorkerTestKit.configuration()
        configuration.outputs = sink
        let job = WorkerTestKit.job(source, output: "out", format: "webp")
        _ = try await sink.store([1, 2, 3], named: "\(job.id.rawValue).webp", in: "out", onConflict: .replace)
        let queue = MemoryQueue()
        let running = WorkerTestKit.Running(
            Worker(queue: queue, pipeline: WorkerTestKit.pipeline(), configuration: configuration, logger: WorkerTestKit.silent))
        _ = try await queue.enqueue([job])
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()

        let result = try #require(events.first { $0.type == .succeeded }?.result)
        #expect(result.output == "memory:out/\(job.id.rawValue).webp")
        #expect(sink.bytes(at: "memory:out/\(job.id.rawValue).webp")?.count == result.bytes)
        #expect(sink.locations.count == 1)
    }
}
