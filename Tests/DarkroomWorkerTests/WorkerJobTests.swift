import DarkroomCache
import DarkroomCore
import DarkroomOutput
import DarkroomPipeline
import DarkroomQueue
import DarkroomStandardProcessors
import DarkroomSystem
import DarkroomTestSupport
import DarkroomWorker
import Foundation
import Testing

@Suite("Worker over a MemoryQueue: outcomes of jobs")
struct WorkerJobTests {
    @Test("Given a job with an output directory, the result is written there as the source's base name with the output extension")
    func successWritesNamedOutput() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(width: 120, height: 80), to: "\(dir)/in/cat.photo.jpeg")
        let queue = MemoryQueue()
        let worker = Worker(
            queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: "\(dir)/in"),
            configuration: WorkerTestKit.configuration(outputRoots: ["\(dir)/out"]), logger: WorkerTestKit.silent)
        let running = WorkerTestKit.Running(worker)

        let job = WorkerTestKit.job(source, output: "\(dir)/out/thumbs", format: "webp")
        _ = try await queue.enqueue([job])
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()

        #expect(events.map(\.type) == [.batchEnqueued, .started, .succeeded])
        let result = try #require(events.last?.result)
        #expect(result.output == "\(dir)/out/thumbs/cat.photo.webp")
        #expect(result.format == "webp" && result.width == 40 && result.height == 27 && result.cache == .miss)
        #expect(result.ms.decode != nil && result.ms.encode != nil)
        let written = try WorkerTestKit.decode("\(dir)/out/thumbs/cat.photo.webp")
        #expect(written.bitmap.width == 40 && written.bitmap.height == 27)
        #expect(try WorkerTestKit.read("\(dir)/out/thumbs/cat.photo.webp").count == result.bytes)
        #expect(result.sha256 == StoredOutput.sha256(of: try WorkerTestKit.read("\(dir)/out/thumbs/cat.photo.webp")))
        #expect(result.sha256?.utf8.count == 64)
        #expect(worker.jobsDone == 1)
        // Nothing but the result in the output directory: no temporary files left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out/thumbs") == ["cat.photo.webp"])
    }

    @Test("Given a corrupt image, the job fails once, permanently, with an image.* code")
    func permanentFailure() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(Array("<html>not an image</html>".utf8), to: "\(dir)/bad.jpg")
        let queue = MemoryQueue(configuration: JobQueueConfiguration(maxAttempts: 5))
        let running = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: dir),
                configuration: WorkerTestKit.configuration(), logger: WorkerTestKit.silent))
        _ = try await queue.enqueue([WorkerTestKit.job(source)])
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()

        let failures = events.filter { $0.type == .failed }
        #expect(failures.count == 1)
        #expect(failures.first?.willRetry == false)
        #expect(failures.first?.error?.code == "image.unknown-format")
        #expect(events.filter(\.isTerminal).count == 1)
        #expect(try await queue.batchProgress("b")?.failed == 1)
    }

    @Test("A chain with a bad argument fails permanently with chain.invalid-argument, without a started event")
    func badArgumentFails() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(), to: "\(dir)/a.jpg")
        let queue = MemoryQueue()
        let running = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: dir),
                configuration: WorkerTestKit.configuration(), logger: WorkerTestKit.silent))
        _ = try await queue.enqueue([WorkerTestKit.job(source, chain: "blur(-3)")])
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()
        #expect(events.map(\.type) == [.batchEnqueued, .failed])
        #expect(events.last?.error?.code == "chain.invalid-argument")
        #expect(events.last?.willRetry == false)
    }

    @Test("Given a source that answers 503 twice then 200, the job is retried and succeeds on attempt 3")
    func transientThenSuccess() async throws {
        let jpeg = try WorkerTestKit.image()
        let attempts = AttemptCounter()
        let source = try TestHTTPServer { _ in
            attempts.next() <= 2 ? .status(503) : .ok(jpeg)
        }
        defer { source.stop() }
        let queue = MemoryQueue(configuration: JobQueueConfiguration(maxAttempts: 5))
        let running = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(allowing: [source.origin]),
                configuration: WorkerTestKit.configuration(), logger: WorkerTestKit.silent))
        _ = try await queue.enqueue([WorkerTestKit.job(source.url("/photo.jpg"))])
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()

        let failures = events.filter { $0.type == .failed }
        #expect(failures.map(\.willRetry) == [true, true])
        #expect(failures.allSatisfy { $0.error?.code == "source.http-5xx" })
        let success = try #require(events.last)
        #expect(success.type == .succeeded && success.attempt == 3)
        #expect(source.requestCount("/photo.jpg") == 3)
    }

    @Test("Given a source that always answers 503, the job is dead after maxAttempts with the last error")
    func transientUntilDead() async throws {
        let source = try TestHTTPServer { _ in .status(503) }
        defer { source.stop() }
        let queue = MemoryQueue(configuration: JobQueueConfiguration(maxAttempts: 3))
        let running = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(allowing: [source.origin]),
                configuration: WorkerTestKit.configuration(), logger: WorkerTestKit.silent))
        _ = try await queue.enqueue([WorkerTestKit.job(source.url("/down.jpg"))])
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()

        #expect(events.filter { $0.type == .failed }.map(\.willRetry) == [true, true])
        let dead = try #require(events.last)
        #expect(dead.type == .dead && dead.attempt == 3)
        #expect(dead.error?.code == "source.http-5xx")
        #expect(source.requestCount("/down.jpg") == 3)
        let letters = try await queue.deadLetters(limit: 10)
        #expect(letters.count == 1 && letters.first?.error.code == "source.http-5xx")
    }

    @Test("A job naming a processor this worker lacks is handed back (released), not failed")
    func unknownProcessorIsReleased() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(), to: "\(dir)/a.jpg")
        let queue = MemoryQueue()
        let worker = Worker(
            queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: dir),
            configuration: WorkerTestKit.configuration(), logger: WorkerTestKit.silent)
        let running = WorkerTestKit.Running(worker)
        _ = try await queue.enqueue([WorkerTestKit.job(source, chain: "sparkle(3)|>downsample(40x40)")])
        // Released with a long delay: it waits, delayed, for a worker that has `sparkle`.
        #expect(await WorkerTestKit.eventually { try await queue.counts().delayed == 1 })
        try await running.stop()

        let events = try await WorkerTestKit.events(on: queue)
        #expect(events.filter { $0.batch == "b" }.map(\.type) == [.batchEnqueued])
        #expect(try await queue.batchProgress("b")?.finished == 0)
        #expect(try await queue.counts().pending == 0)
        #expect(worker.jobsDone == 0)
    }

    @Test("An output directory outside the allowed roots is refused with output.not-allowed, and nothing is written")
    func outputOutsideRootsRefused() async throws {
        let fixture = try WorkerTestKit.SymlinkedOutputRoot()
        let (dir, source, queue, running) = (fixture.dir, fixture.source, fixture.queue, fixture.running)
        defer { WorkerTestKit.remove(dir) }
        let outputs = ["\(dir)/elsewhere", "\(dir)/out/../secret", "\(dir)/out/link", "\(dir)/out-sibling"]
        _ = try await queue.enqueue(outputs.map { WorkerTestKit.job(source, output: $0) })
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()

        let failures = events.filter { $0.type == .failed }
        #expect(failures.count == 4)
        #expect(failures.allSatisfy { $0.error?.code == "output.not-allowed" && $0.willRetry == false })
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/secret").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/elsewhere"))
    }

    @Test("A directory replaced by a symlink after an earlier job used it cannot lead a later write outside the roots")
    func symlinkSwappedInIsRefused() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(), to: "\(dir)/in/a.jpg")
        try FileManager.default.createDirectory(atPath: "\(dir)/secret", withIntermediateDirectories: true)
        let queue = MemoryQueue()
        let running = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: "\(dir)/in"),
                configuration: WorkerTestKit.configuration(outputRoots: ["\(dir)/out"]),
                logger: WorkerTestKit.silent))
        _ = try await queue.enqueue([WorkerTestKit.job(source, batch: "first", output: "\(dir)/out/sub")])
        let first = try await WorkerTestKit.finish("first", on: queue)
        #expect(first.last?.type == .succeeded)

        try FileManager.default.removeItem(atPath: "\(dir)/out/sub")
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/out/sub", withDestinationPath: "\(dir)/secret")
        _ = try await queue.enqueue([WorkerTestKit.job(source, batch: "second", output: "\(dir)/out/sub")])
        let second = try await WorkerTestKit.finish("second", on: queue)
        try await running.stop()
        #expect(second.last?.error?.code == "output.not-allowed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/secret").isEmpty)
    }

    @Test("A worker without output roots refuses every job that names an output")
    func noRootsNoOutputs() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(), to: "\(dir)/a.jpg")
        let queue = MemoryQueue()
        let running = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: dir),
                configuration: WorkerTestKit.configuration(), logger: WorkerTestKit.silent))
        _ = try await queue.enqueue([WorkerTestKit.job(source, output: "\(dir)/out")])
        let events = try await WorkerTestKit.finish("b", on: queue)
        try await running.stop()
        #expect(events.last?.error?.code == "output.not-allowed")
        #expect(events.last?.error?.message.contains("--allow-output-root") == true)
    }

    @Test("Two sources with one base name: the first gets the name, the other its job id; a re-run keeps its own file")
    func nameCollisionUsesJobID() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let first = try WorkerTestKit.write(try WorkerTestKit.image(tint: 10), to: "\(dir)/in/a/cat.jpg")
        let second = try WorkerTestKit.write(try WorkerTestKit.image(tint: 240), to: "\(dir)/in/b/cat.jpg")
        let queue = MemoryQueue()
        let running = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: "\(dir)/in"),
                configuration: WorkerTestKit.configuration(concurrency: 1, outputRoots: [dir]),
                logger: WorkerTestKit.silent))
        let firstJob = WorkerTestKit.job(first, batch: "one", output: "\(dir)/out")
        let secondJob = WorkerTestKit.job(second, batch: "two", output: "\(dir)/out", id: JobID(rawValue: "photos/b/cat")!)
        _ = try await queue.enqueue([firstJob])
        let one = try await WorkerTestKit.finish("one", on: queue)
        _ = try await queue.enqueue([secondJob])
        let two = try await WorkerTestKit.finish("two", on: queue)
        // The same work again under a new id: identical bytes, so the existing file is its result.
        _ = try await queue.enqueue([WorkerTestKit.job(first, batch: "three", output: "\(dir)/out")])
        let three = try await WorkerTestKit.finish("three", on: queue)
        try await running.stop()

        #expect(one.last?.result?.output == "\(dir)/out/cat.jpg")
        // The id `photos/b/cat` cannot hold a slash in a file name.
        #expect(two.last?.result?.output == "\(dir)/out/photos_b_cat.jpg")
        #expect(three.last?.result?.output == "\(dir)/out/cat.jpg")
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(dir)/out").sorted() == ["cat.jpg", "photos_b_cat.jpg"])
        let firstPixels = try WorkerTestKit.decode("\(dir)/out/cat.jpg").bitmap
        let secondPixels = try WorkerTestKit.decode("\(dir)/out/photos_b_cat.jpg").bitmap
        #expect(Self.blue(firstPixels) < 60 && Self.blue(secondPixels) > 190)
    }

    @Test("Without an output, the succeeded result names the cache file, and a repeat is a cache hit")
    func resultWithoutOutputIsTheCacheFile() async throws {
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(), to: "\(dir)/a.jpg")
        let disk = try DiskCache(directory: "\(dir)/cache")
        let queue = MemoryQueue()
        let running = WorkerTestKit.Running(
            Worker(
                queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: dir, disk: disk),
                configuration: WorkerTestKit.configuration(), logger: WorkerTestKit.silent))
        _ = try await queue.enqueue([WorkerTestKit.job(source, batch: "first")])
        let first = try await WorkerTestKit.finish("first", on: queue)
        _ = try await queue.enqueue([WorkerTestKit.job(source, batch: "again")])
        let again = try await WorkerTestKit.finish("again", on: queue)
        try await running.stop()

        let path = try #require(first.last?.result?.output)
        #expect(path.hasPrefix("\(dir)/cache/"))
        #expect(try WorkerTestKit.decode(path).bitmap.width == 40)
        #expect(first.last?.result?.cache == .miss)
        #expect(again.last?.result?.cache == .memory)
        #expect(again.last?.result?.output == path)
    }

    /// Mean blue channel of a bitmap's first row (the tint of the test gradients).
    static func blue(_ bitmap: Bitmap) -> Int {
        bitmap.withUnsafeBytes { bytes in
            var sum = 0
            for x in 0..<bitmap.width { sum += Int(bytes[x * 4 + 2]) }
            return sum / bitmap.width
        }
    }
}

/// Counts requests across the HTTP server's threads.
final class AttemptCounter: Sendable {
    private let count = Locked(0)
    func next() -> Int {
        count.withLock {
            $0 += 1
            return $0
        }
    }
}
