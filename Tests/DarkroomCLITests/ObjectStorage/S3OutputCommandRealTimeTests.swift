import DarkroomQueue
import DarkroomRedis
import DarkroomS3
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

@Suite("darkroom enqueue --out s3://… and a darkroom worker writing to a bucket, against moto", .realTime, .serialized)
struct S3OutputCommandRealTimeTests {
    @Test("A job from a bucket to another: the worker process writes the object, and the event has its URL and ETag")
    func bucketToBucket() async throws {
        let moto = try await MotoS3Server()
        try await moto.createBucket("photos")
        try await moto.createBucket("thumbs")
        let s3 = try MotoCommandFlags(moto, buckets: ["photos", "thumbs"])
        let (endpoint, flags, environment) = (s3.endpoint, s3.flags, s3.environment)
        let client = S3Client(endpoint: endpoint, pool: BlockingWorkPool(threadCount: 2))
        _ = try await client.putObject(
            bucket: "photos", key: "in/a.jpg", bytes: try WorkerCLITestKit.image(.jpeg, width: 200, height: 100), contentType: nil,
            cacheControl: nil)
        let directory = try WorkerCLITestKit.makeDirectory("s3-out-cli")
        defer { WorkerCLITestKit.remove(directory) }
        let redis = try RedisTestServer()
        defer { redis.stop() }

        let enqueued = try await WorkerCLITestKit.run(
            [
                "enqueue", "s3://moto@photos/in/a.jpg", "-p", "downsample(50x50)", "--format", "webp", "--out", "s3://moto@thumbs/out/",
                "--batch", "thumbs", "--allow-unoffered", "--redis", redis.url,
            ] + flags, in: directory, environment: environment)
        #expect(enqueued.status == 0, "\(enqueued.error)")
        let worker = try WorkerCLITestKit.Running(
            ["worker", "--redis", redis.url, "--name", "w-s3", "--s3-cache-control", "public, max-age=60"] + flags,
            environment: environment, directory: directory)
        let queue = RedisStreamsQueue(client: RedisClient(url: try RedisURL(redis.url)))
        let done = await WorkerCLITestKit.eventually { try await queue.batchProgress("thumbs")?.isComplete == true }
        worker.signal(SIGTERM)
        let run = await worker.finish()
        #expect(done, "worker stderr: \(run.error)")
        #expect(run.status == 0, "\(run.error)")

        let result = try #require(try await WorkerCLITestKit.events(queue).first { $0.type == .succeeded }?.result)
        #expect(result.output == "s3://moto@thumbs/out/a.webp")
        let object = try await client.getObject(bucket: "thumbs", key: "out/a.webp", maxBytes: 1 << 24)
        #expect(result.etag == object.etag)
        #expect(object.contentType == "image/webp")
        #expect(object.bytes.count == result.bytes)

        let bad = try await WorkerCLITestKit.run(["worker", "--s3-part-size-mb", "2"], in: directory)
        #expect(bad.status == 2 && bad.error.contains("--s3-part-size-mb"), "\(bad.error)")
    }
}
