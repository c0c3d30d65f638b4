import DarkroomCache
import DarkroomChains
import DarkroomOutput
import DarkroomPipeline
import DarkroomQueue
import DarkroomStandardProcessors
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomWorker

/// A job with renditions: every output from one decode, each stored through the sink under its
/// own name, listed in the `succeeded` event; a rendition that fails fails the job, and the
/// `failed` event names the renditions stored.
@Suite("Worker: jobs with renditions")
struct WorkerRenditionsTests {
    struct Fixture {
        let dir: String
        let queue = MemoryQueue()
        let running: WorkerTestKit.Running

        init(maxOutputDimension: Int? = nil) throws {
            dir = try WorkerTestKit.makeDirectory("renditions")
            source = try WorkerTestKit.write(try WorkerTestKit.image(width: 400, height: 300, tint: 60), to: "\(dir)/in/cat.jpg")
            var pipeline = ImagePipeline.Configuration()
            pipeline.sourcePolicy.fileRoots = ["\(dir)/in"]
            pipeline.diskCache = try DiskCache(directory: "\(dir)/cache")
            pipeline.maxConcurrentProcessing = 2
            if let maxOutputDimension { pipeline.limits.maxOutputDimension = maxOutputDimension }
            let configuration = WorkerTestKit.configuration(outputRoots: ["\(dir)/out"])
            running = WorkerTestKit.Running(
                Worker(queue: queue, pipeline: pipeline.build(), configuration: configuration, logger: WorkerTestKit.silent))
        }

        /// The source, written once: writing it again would make it a new original (its key has the mtime).
        let source: String

        func job(_ renditions: [JobRendition], batch: String = "b") throws -> Job {
            Job(
                batch: batch, source: source, chain: Job.renditionsChain, format: "webp", output: "\(dir)/out",
                requires: ["renditions"], renditions: renditions)
        }

        func run(_ jobs: [Job], batch: String = "b") async throws -> [JobEvent] {
            _ = try await queue.enqueue(jobs)
            return try await WorkerTestKit.finish(batch, on: queue)
        }

        func stop() async throws {
            try await running.stop()
            WorkerTestKit.remove(dir)
        }
    }

    static let renditions = [
        JobRendition(name: "large", chain: "downsample(200x200)"),
        JobRendition(name: "small", chain: "downsample(50x50)", format: "png"),
    ]

    @Test("Every rendition is written as {stem}-{name}.{ext} and listed in the succeeded event; the same job again comes from the cache")
    func succeeds() async throws {
        let fixture = try Fixture()
        let events = try await fixture.run([try fixture.job(Self.renditions)])
        let again = try await fixture.run([try fixture.job(Self.renditions, batch: "c")], batch: "c")
        let dir = fixture.dir
        let large = try WorkerTestKit.decode("\(dir)/out/cat-large.webp").bitmap
        let small = try WorkerTestKit.decode("\(dir)/out/cat-small.png").bitmap
        try await fixture.stop()

        let succeeded = try #require(events.first { $0.type == .succeeded })
        let result = try #require(succeeded.result)
        let listed = try #require(result.renditions)
        #expect(listed.map(\.name) == ["large", "small"])
        #expect(listed.map(\.output) == ["\(dir)/out/cat-large.webp", "\(dir)/out/cat-small.png"])
        #expect(listed.map(\.format) == ["webp", "png"])
        #expect(listed[0].width == 200 && listed[0].height == 150 && listed[1].width == 50 && (37...38).contains(listed[1].height))
        #expect(listed.allSatisfy { $0.cache == .miss && $0.sha256?.count == 64 && $0.bytes > 0 })
        #expect(result.output == listed[0].output && result.width == 200)
        #expect(result.ms.decode != nil)
        #expect(large.width == 200 && small.width == 50)

        let second = try #require(again.first { $0.type == .succeeded }?.result)
        #expect(second.renditions?.allSatisfy { $0.cache != .miss } == true)
        #expect(second.cache != .miss)
    }

    @Test("A rendition over a limit fails the job permanently; the event names the renditions written, and their files exist")
    func failureNamesWritten() async throws {
        let fixture = try Fixture(maxOutputDimension: 100)
        let events = try await fixture.run([try fixture.job(Self.renditions)])
        let dir = fixture.dir
        let written = FileManager.default.fileExists(atPath: "\(dir)/out/cat-small.png")
        let notWritten = FileManager.default.fileExists(atPath: "\(dir)/out/cat-large.webp")
        try await fixture.stop()

        let failed = try #require(events.first { $0.type == .failed })
        #expect(failed.willRetry == false)
        #expect(failed.error?.code == "output.too-large")
        #expect(failed.error?.written == ["small"])
        #expect(written && !notWritten)
    }

    @Test("A rendition naming a processor this worker lacks hands the job back, as a job's own chain does")
    func unknownProcessorIsNotAFailure() throws {
        let job = Job(
            batch: "b", source: "/in/cat.jpg", chain: Job.renditionsChain, requires: ["renditions"],
            renditions: [JobRendition(name: "a", chain: "vignette(2)")])
        #expect(throws: ChainError.self) { try JobPlan(job: job, processors: StandardProcessors.registry) }
    }
}
