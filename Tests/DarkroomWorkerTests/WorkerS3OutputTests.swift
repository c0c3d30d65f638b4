import DarkroomOutput
import DarkroomQueue
import DarkroomRedis
import DarkroomS3
import DarkroomSystem
import DarkroomTestSupport
import DarkroomWorker
import Testing

/// A worker on a real Redis whose output sink routes `s3://` destinations to an `S3Sink` on moto:
/// the object is in the bucket with the job's bytes and Content-Type, and the `succeeded` event
/// (as the Redis stream holds it) carries its URL and ETag.
@Suite("Worker writing outputs to a bucket (Redis, moto)", .realTime, .serialized)
struct WorkerS3OutputTests {
    @Test("Given a job whose output is s3://outputs/thumbs/, then the object holds the result and the event has its URL and ETag")
    func writesToABucket() async throws {
        let redis = try RedisTestServer()
        let moto = try await MotoS3Server()
        try await moto.createBucket("outputs")
        let endpoint = moto.endpoint(alias: S3Endpoint.defaultAlias)
        let pool = BlockingWorkPool(threadCount: 4)
        let s3 = S3Sink(
            configuration: S3Configuration(endpoints: [endpoint], allowedBuckets: [S3Bucket(endpoint: endpoint.alias, name: "outputs")]),
            pool: pool)
        let dir = try WorkerTestKit.makeDirectory()
        defer { WorkerTestKit.remove(dir) }
        let source = try WorkerTestKit.write(try WorkerTestKit.image(width: 120, height: 80), to: "\(dir)/in/cat.jpg")

        var configuration = WorkerTestKit.configuration()
        configuration.outputs = RoutedOutputSink(volume: VolumeSink(roots: []), schemes: ["s3": s3])
        configuration.features.insert(Capabilities.s3Output)
        configuration.features.insert(Capabilities.bucket(alias: endpoint.alias, name: "outputs"))
        let client = RedisClient(url: try RedisURL(redis.url))
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client)
        let running = WorkerTestKit.Running(
            Worker(queue: queue, pipeline: WorkerTestKit.pipeline(fileRoot: "\(dir)/in"), configuration: configuration, logger: WorkerTestKit.silent))
        var job = WorkerTestKit.job(source, output: "s3://outputs/thumbs/", format: "webp")
        job.requires = Capabilities.canonical(Capabilities.outputRequirements(job.output))
        _ = try await queue.enqueue([job])
        let finished = await WorkerTestKit.eventually {
            (try? await queue.batchProgress("b"))?.isComplete == true
        }
        try await running.stop()
        #expect(finished)

        var events: [JobEvent] = []
        var cursor = EventCursor.start
        while true {
            let page = try await queue.readEvents(after: cursor, limit: 100, wait: .zero)
            guard let last = page.last else { break }
            events += page.map(\.event)
            cursor = last.cursor
        }
        let result = try #require(events.first { $0.type == .succeeded }?.result)
        #expect(result.output == "s3://outputs/thumbs/cat.webp")
        let object = try await S3Client(endpoint: endpoint, pool: pool).getObject(bucket: "outputs", key: "thumbs/cat.webp", maxBytes: 1 << 24)
        #expect(result.etag == object.etag)
        #expect(object.contentType == "image/webp")
        #expect(result.bytes == object.bytes.count)
        #expect(result.sha256 == StoredOutput.sha256(of: object.bytes))
        #expect(object.bytes.starts(with: Array("RIFF".utf8)))
    }
}
