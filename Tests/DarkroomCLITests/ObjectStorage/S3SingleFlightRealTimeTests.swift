import DarkroomQueue
import DarkroomRedis
import DarkroomS3
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

@Suite("Two darkroom worker processes on one cache directory fetch an s3:// source once, against moto", .realTime, .serialized)
struct S3SingleFlightRealTimeTests {
    /// The requests moto received since `start-recording`, as its recorder logs them: one JSON
    /// object per line with `method` and `url`.
    static func recordedRequests(_ moto: MotoS3Server) async throws -> [(method: String, url: String)] {
        let reply = try await HTTPTestClient(port: moto.port).get("/moto-api/recorder/download-recording")
        return reply.text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let method = object["method"] as? String, let url = object["url"] as? String
            else { return nil }
            return (method, url)
        }
    }

    @Test("Six jobs with six chains on one s3:// object, two workers sharing a cache: one GET of the object, six successes")
    func oneFetch() async throws {
        let moto = try await MotoS3Server()
        try await moto.createBucket("photos")
        let s3 = try MotoCommandFlags(moto, buckets: ["photos"])
        let (flags, environment) = (s3.flags, s3.environment)
        let client = S3Client(endpoint: s3.endpoint, pool: BlockingWorkPool(threadCount: 2))
        _ = try await client.putObject(
            bucket: "photos", key: "in/a.jpg", bytes: try WorkerCLITestKit.image(.jpeg, width: 1600, height: 1000), contentType: nil,
            cacheControl: nil)
        let directory = try WorkerCLITestKit.makeDirectory("s3-single-flight")
        defer { WorkerCLITestKit.remove(directory) }
        let redis = try RedisTestServer()
        defer { redis.stop() }

        // Six chains on one object, each line listing it (so each job's source is pinned to the
        // ETag and its cache key is known without a request): six results, one original.
        let sizes = [40, 60, 80, 100, 120, 140]
        let lines = sizes.map { #"{"source": "s3://moto@photos/in/*.jpg", "chain": "resize(\#($0)x\#($0))"}"# }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: directory + "/jobs.jsonl"))
        let enqueued = try await WorkerCLITestKit.run(
            ["enqueue", "--from", "jobs.jsonl", "--batch", "shared", "--allow-unoffered", "--redis", redis.url] + flags, in: directory,
            environment: environment)
        #expect(enqueued.status == 0, "\(enqueued.error)")

        // moto's recorder appends to a file in its working directory, which other moto servers
        // may share: emptied first, and only this server's URLs counted.
        for action in ["reset-recording", "start-recording"] {
            let reply = try await HTTPTestClient(port: moto.port).perform("POST", "/moto-api/recorder/" + action)
            #expect(reply.status == 200, "\(action): \(reply.text)")
        }
        let workers = try ["w1", "w2"].map { name in
            try WorkerCLITestKit.Running(
                ["worker", "--redis", redis.url, "--name", name, "--cache", "cache", "--concurrency", "3"] + flags, environment: environment,
                directory: directory)
        }
        let queue = RedisStreamsQueue(client: RedisClient(url: try RedisURL(redis.url)))
        let done = await WorkerCLITestKit.eventually { try await queue.batchProgress("shared")?.isComplete == true }
        var errors: [String] = []
        for worker in workers {
            worker.signal(SIGTERM)
            errors.append((await worker.finish()).error)
        }
        #expect(done, "workers' stderr: \(errors)")
        let progress = try await queue.batchProgress("shared")
        #expect(progress?.total == sizes.count && progress?.succeeded == sizes.count, "\(String(describing: progress))")
        let workersThatRan = Set(try await WorkerCLITestKit.events(queue).filter { $0.type == .succeeded }.compactMap(\.worker))
        // Each worker takes at most 3 of the 6 at once, so both run some: the single flight is
        // across processes, not only within one.
        #expect(workersThatRan.count == 2, "\(workersThatRan)")
        let requests = try await Self.recordedRequests(moto)
        let gets = requests.filter { $0.method == "GET" && $0.url == "http://127.0.0.1:\(moto.port)/photos/in/a.jpg" }
        #expect(
            gets.count == 1, "the object was fetched \(gets.count) times by \(workersThatRan.sorted()); requests: \(requests.map { "\($0.method) \($0.url)" })")
    }
}
