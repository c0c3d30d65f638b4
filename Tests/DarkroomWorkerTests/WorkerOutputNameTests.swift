import DarkroomOutput
import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomWorker

/// The worker names outputs by the job's template and, on a real `VolumeSink`, tells who owns a
/// taken name from the file's extended attributes: another job of the same batch fails the job
/// (`output.taken`); another batch's file is stepped around (default template) or replaced
/// (a template the user chose).
@Suite(
    "Worker output names on the volume",
    .enabled(
        if: VolumeSink.recordsOwners(in: FileManager.default.temporaryDirectory.path),
        "the temporary directory's file system keeps no user extended attributes"))
struct WorkerOutputNameTests {
    /// A worker over a real `VolumeSink` rooted at `dir/out`, reading files under `dir/in`.
    struct Fixture {
        let dir: String
        let queue = MemoryQueue()
        let sink: VolumeSink
        let running: WorkerTestKit.Running

        init() throws {
            dir = try WorkerTestKit.makeDirectory("names")
            sink = VolumeSink(roots: ["\(dir)/out"], durable: false)
            var configuration = WorkerTestKit.configuration()
            configuration.outputs = sink
            running = WorkerTestKit.Running(
                Worker(queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: "\(dir)/in"), configuration: configuration, logger: WorkerTestKit.silent))
        }

        /// A JPEG under `in/` at `path`, its pixels told apart by `tint`.
        func source(_ path: String, tint: UInt8) throws -> String {
            try WorkerTestKit.write(try WorkerTestKit.image(width: 120, height: 80, tint: tint), to: "\(dir)/in/\(path)")
        }

        /// Enqueues `jobs` and waits for `batch` to finish; its events.
        func run(_ jobs: [Job], batch: String = "b") async throws -> [JobEvent] {
            _ = try await queue.enqueue(jobs)
            return try await WorkerTestKit.finish(batch, on: queue)
        }

        func stop() async throws {
            try await running.stop()
            WorkerTestKit.remove(dir)
        }
    }

    static func job(_ source: String, batch: String = "b", output: String, name: String? = nil) -> Job {
        var job = WorkerTestKit.job(source, batch: batch, output: output, format: "webp")
        job.name = name
        return job
    }

    @Test("Given a name another job of the same batch wrote, the job fails with output.taken naming the path and that job")
    func sameBatchFails() async throws {
        let fixture = try Fixture()
        let out = "\(fixture.dir)/out"
        let first = Self.job(try fixture.source("a/cat.jpg", tint: 40), output: out)
        let second = Self.job(try fixture.source("b/cat.jpg", tint: 200), output: out)
        _ = try await fixture.run([first])
        let events = try await fixture.run([second])
        try await fixture.stop()

        let failed = try #require(events.first { $0.job == second.id && $0.type == .failed })
        #expect(failed.error?.code == "output.taken")
        #expect(failed.willRetry == false)
        #expect(failed.error?.message.contains("\(out)/cat.webp") == true)
        #expect(failed.error?.message.contains(first.id.rawValue) == true)
    }

    @Test("Given another batch's file under the name, the default template steps around it to the id's name")
    func otherBatchDefaultFallsBack() async throws {
        let fixture = try Fixture()
        let out = "\(fixture.dir)/out"
        let old = Self.job(try fixture.source("a/cat.jpg", tint: 40), batch: "old", output: out)
        _ = try await fixture.run([old], batch: "old")
        let job = Self.job(try fixture.source("b/cat.jpg", tint: 200), output: out)
        let events = try await fixture.run([job])
        let before = try WorkerTestKit.read("\(out)/cat.webp")
        try await fixture.stop()

        let result = try #require(events.first { $0.type == .succeeded }?.result)
        #expect(result.output == "\(out)/\(job.id.rawValue).webp")
        #expect(before.count > 0)
    }

    @Test("Given another batch's file, or one of unknown origin, under an explicit template's name, the job replaces it")
    func otherBatchExplicitReplaces() async throws {
        let fixture = try Fixture()
        let out = "\(fixture.dir)/out"
        let old = Self.job(try fixture.source("a/cat.jpg", tint: 40), batch: "old", output: out, name: "{stem}.{ext}")
        _ = try await fixture.run([old], batch: "old")
        let job = Self.job(try fixture.source("b/cat.jpg", tint: 200), output: out, name: "{stem}.{ext}")
        // A file nobody recorded: written without extended attributes.
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: "\(out)/dog.webp"))
        let dog = Self.job(try fixture.source("b/dog.jpg", tint: 90), output: out, name: "{stem}.{ext}")
        let events = try await fixture.run([job, dog])
        let owner = VolumeSink.owner(ofFileAt: "\(out)/cat.webp")
        let dogBytes = try WorkerTestKit.read("\(out)/dog.webp")
        try await fixture.stop()

        let outputs = Set(events.compactMap { $0.type == .succeeded ? $0.result?.output : nil })
        #expect(outputs == ["\(out)/cat.webp", "\(out)/dog.webp"])
        #expect(owner == OutputOwner(job: job.id.rawValue, batch: "b"))
        #expect(dogBytes.count > 3)
    }

    @Test("A template's fields name the file: {stem}-{chain}.{ext} and {batch}-{id}.{ext}")
    func templatesNameTheFile() async throws {
        let fixture = try Fixture()
        let out = "\(fixture.dir)/out"
        let source = try fixture.source("cat.jpg", tint: 40)
        let hashed = Self.job(source, output: out, name: "{stem}-{chain}.{ext}")
        let byID = Self.job(source, output: out, name: "{batch}-{id}.{ext}")
        let bad = Self.job(source, output: out, name: "{nope}.{ext}")
        let events = try await fixture.run([hashed, byID, bad])
        try await fixture.stop()

        let outputs = Set(events.compactMap { $0.type == .succeeded ? $0.result?.output : nil })
        #expect(outputs == ["\(out)/cat-\(ChainDigest.of(hashed.chain)).webp", "\(out)/b-\(byID.id.rawValue).webp"])
        let failed = try #require(events.first { $0.job == bad.id && $0.type == .failed })
        #expect(failed.error?.code == "name.unknown-field")
        #expect(failed.willRetry == false)
    }

    @Test("A redelivered job storing the same bytes again succeeds; one of its own with other bytes is replaced")
    func redelivery() async throws {
        let dir = try WorkerTestKit.makeDirectory("names")
        defer { WorkerTestKit.remove(dir) }
        let sink = VolumeSink(roots: [dir], durable: false)
        let owner = OutputOwner(job: "j1", batch: "b")
        let first = try await Worker.store([1, 2, 3], name: "cat.webp", fallback: "j1.webp", owner: owner, in: dir, sink: sink)
        let again = try await Worker.store([1, 2, 3], name: "cat.webp", fallback: "j1.webp", owner: owner, in: dir, sink: sink)
        let changed = try await Worker.store([4, 5], name: "cat.webp", fallback: nil, owner: owner, in: dir, sink: sink)
        #expect(again == first)
        #expect(changed.location == first.location)
        #expect(try WorkerTestKit.read("\(dir)/cat.webp") == [4, 5])
    }
}
