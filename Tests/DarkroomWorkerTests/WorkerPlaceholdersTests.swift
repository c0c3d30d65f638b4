import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomQueue
import DarkroomRedis
import DarkroomSystem
import DarkroomTestSupport
import DarkroomWorker
import Foundation
import Testing

/// Placeholders end to end on a real Redis: the `succeeded` event (as the stream holds it) carries
/// them; a second job on the same result is a cache hit that returns the same strings without
/// decoding (its cached image is made undecodable first); an entry cached without placeholders
/// gets them by one decode; a worker without the capability leaves such jobs alone.
@Suite("Worker: placeholders in results (Redis)", .realTime, .serialized)
struct WorkerPlaceholdersTests {
    static let all = ["blurhash", "color", "thumbhash"]

    struct Fixture {
        let redis: RedisTestServer
        let client: RedisClient
        let queue: RedisStreamsQueue
        let dir: String
        let source: String

        init() throws {
            redis = try RedisTestServer()
            client = RedisClient(url: try RedisURL(redis.url))
            queue = RedisStreamsQueue(client: client)
            dir = try WorkerTestKit.makeDirectory("placeholders")
            source = try WorkerTestKit.write(try WorkerTestKit.image(width: 400, height: 300, tint: 70), to: "\(dir)/in/cat.jpg")
        }

        /// A worker whose results go to the disk cache only (no memory cache, so hits read the disk).
        func worker(features: Set<String>? = nil, name: String = "w") throws -> WorkerTestKit.Running {
            var pipeline = ImagePipeline.Configuration()
            pipeline.sourcePolicy.fileRoots = ["\(dir)/in"]
            pipeline.diskCache = try DiskCache(directory: "\(dir)/cache")
            pipeline.memoryCacheBytes = 0
            pipeline.maxConcurrentProcessing = 2
            var configuration = WorkerTestKit.configuration(name: name)
            if let features { configuration.features = features }
            return WorkerTestKit.Running(
                Worker(queue: queue, pipeline: pipeline.build(), configuration: configuration, logger: WorkerTestKit.silent))
        }

        func job(batch: String, chain: String = "downsample(200x200)", placeholders: [String]?) -> Job {
            var job = WorkerTestKit.job(source, chain: chain, batch: batch, format: "png")
            job.placeholders = placeholders
            job.require(Capabilities.features(name: nil, placeholders: placeholders))
            return job
        }

        /// The batch's terminal result, once it has one.
        func result(_ batch: String) async throws -> JobResult {
            #expect(await WorkerTestKit.eventually { (try? await queue.batchProgress(batch))?.isComplete == true })
            var cursor = EventCursor.start
            var events: [JobEvent] = []
            while true {
                let page = try await queue.readEvents(after: cursor, limit: 100, wait: .zero)
                guard let last = page.last else { break }
                events += page.map(\.event)
                cursor = last.cursor
            }
            return try #require(events.first { $0.batch == batch && $0.type == .succeeded }?.result)
        }

        func close() {
            client.close()
            WorkerTestKit.remove(dir)
        }
    }

    /// Scrambles the compressed pixels of a PNG (the bytes after its first IDAT's type) and leaves
    /// its header whole: it still describes itself, but cannot be decoded.
    static func scramblePixels(_ path: String) throws {
        var bytes = try WorkerTestKit.read(path)
        let idat = Array("IDAT".utf8)
        let start = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == idat }) + 4
        for index in start..<min(bytes.count - 12, start + 64) { bytes[index] ^= 0x5A }
        try WorkerTestKit.write(bytes, to: path)
    }

    @Test("Given a job asking for placeholders, then the event carries them; a second job is a disk hit with the same strings and no decode")
    func carriedAndCached() async throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let running = try fixture.worker()
        _ = try await fixture.queue.enqueue([fixture.job(batch: "first", placeholders: Self.all)])
        let first = try await fixture.result("first")
        let cached = try #require(first.output)
        let pixels = try WorkerTestKit.decode(cached).bitmap
        try Self.scramblePixels(cached)
        #expect(throws: (any Error).self) { _ = try WorkerTestKit.decode(cached) }

        _ = try await fixture.queue.enqueue([fixture.job(batch: "second", placeholders: ["blurhash", "thumbhash"])])
        let second = try await fixture.result("second")
        try await running.stop()

        #expect(first.cache == .miss && first.width == 200 && first.height == 150)
        let placeholders = try #require(first.placeholders)
        #expect(placeholders.blurhash?.count == 28)
        #expect(placeholders.color?.count == 7 && placeholders.color?.hasPrefix("#") == true)
        #expect(placeholders.thumbhash?.isEmpty == false)
        // From the processed pixels, which the PNG holds exactly.
        #expect(placeholders == (try pixels.placeholders(Set(PlaceholderKind.allCases))))
        #expect(second.cache == .disk)
        #expect(second.placeholders == Placeholders(blurhash: placeholders.blurhash, thumbhash: placeholders.thumbhash))
    }

    @Test("Given a result cached without placeholders, then a job asking for them gets them from one decode of the cached output")
    func computedForAnOlderEntry() async throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let running = try fixture.worker()
        _ = try await fixture.queue.enqueue([fixture.job(batch: "plain", chain: "downsample(120x120)", placeholders: nil)])
        let plain = try await fixture.result("plain")
        _ = try await fixture.queue.enqueue([fixture.job(batch: "asked", chain: "downsample(120x120)", placeholders: ["color"])])
        let asked = try await fixture.result("asked")
        try await running.stop()

        #expect(plain.placeholders == nil)
        #expect(asked.cache == .disk)
        let pixels = try WorkerTestKit.decode(try #require(asked.output)).bitmap
        #expect(asked.placeholders == (try pixels.placeholders([.color])))
    }

    @Test("Given a worker without the placeholders capability, then it leaves the job for one that has it")
    func gated() async throws {
        let fixture = try Fixture()
        defer { fixture.close() }
        let job = fixture.job(batch: "gated", placeholders: ["color"])
        #expect(job.requires == ["placeholders"])
        let old = try fixture.worker(features: Capabilities.honouredFeatures.subtracting([Capabilities.placeholders]), name: "old")
        _ = try await fixture.queue.enqueue([job])
        try await Task.sleep(for: .milliseconds(800))
        #expect(try await fixture.queue.batchProgress("gated")?.isComplete != true)
        try await old.stop()

        let current = try fixture.worker(name: "current")
        let result = try await fixture.result("gated")
        try await current.stop()
        #expect(result.placeholders?.color != nil)
    }
}
