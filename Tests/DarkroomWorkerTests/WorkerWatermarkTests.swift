import DarkroomCache
import DarkroomCodecs
import DarkroomQueue
import DarkroomTestSupport
import DarkroomWorker
import Foundation
import Testing

@Suite("Worker over a MemoryQueue: jobs that draw a watermark fetched over HTTP", .realTime)
struct WorkerWatermarkTests {
    @Test("Jobs on different sources share one download of the watermark; a missing one fails with source.not-found")
    func sharedDownloadAndFailure() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let logo = try WorkerTestKit.image(.png, width: 30, height: 20, tint: 250)
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/logo.png": return .ok(logo)
            case "/busy.png": return .status(503)
            default: return .status(404)
            }
        }
        defer { server.stop() }
        let a = try WorkerTestKit.write(try WorkerTestKit.image(width: 120, height: 80, tint: 10), to: "\(dir)/a.jpg")
        let b = try WorkerTestKit.write(try WorkerTestKit.image(width: 100, height: 90, tint: 200), to: "\(dir)/b.jpg")
        let queue = MemoryQueue(configuration: JobQueueConfiguration(maxAttempts: 2))
        let pipeline = WorkerTestKit.pipeline(fileRoot: dir, allowing: [server.origin], disk: try DiskCache(directory: "\(dir)/cache"))
        let running = WorkerTestKit.Running(
            Worker(queue: queue, pipeline: pipeline, configuration: WorkerTestKit.configuration(), logger: WorkerTestKit.silent))

        let chain = #"downsample(60x60)|>watermark("\#(server.url("/logo.png"))", opacity: 0.6)"#
        _ = try await queue.enqueue([WorkerTestKit.job(a, chain: chain), WorkerTestKit.job(b, chain: chain)])
        let events = try await WorkerTestKit.finish("b", on: queue)
        #expect(events.filter { $0.type == .succeeded }.count == 2)
        #expect(server.requestCount("/logo.png") == 1)

        let missing = server.url("/gone.png")
        _ = try await queue.enqueue([WorkerTestKit.job(a, chain: #"watermark("\#(missing)")"#, batch: "missing")])
        let failed = try await WorkerTestKit.finish("missing", on: queue).filter { $0.type == .failed }
        #expect(failed.count == 1 && failed.first?.willRetry == false)
        #expect(failed.first?.error?.code == "source.not-found")
        #expect(failed.first?.error?.message.contains(missing) == true)

        // A transient failure (503) is retried as a source's is, then dead-lettered.
        _ = try await queue.enqueue([WorkerTestKit.job(a, chain: #"watermark("\#(server.url("/busy.png"))")"#, batch: "busy")])
        let busy = try await WorkerTestKit.finish("busy", on: queue)
        try await running.stop()
        #expect(busy.contains { $0.type == .failed && $0.willRetry == true && $0.error?.code == "source.http-5xx" })
        #expect(busy.contains { $0.type == .dead })
    }
}
