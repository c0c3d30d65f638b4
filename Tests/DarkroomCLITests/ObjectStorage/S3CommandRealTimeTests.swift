import DarkroomChains
import DarkroomCore
import DarkroomQueue
import DarkroomRedis
import DarkroomS3
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

@Suite("darkroom process, run and enqueue with s3:// sources, against moto", .realTime, .serialized)
struct S3CommandRealTimeTests {
    /// moto with bucket `photos` holding `in/a.jpg`, `in/b.jpg` and `in/c.png`, and the flags and
    /// environment a command needs to read it (credentials for the endpoint alias `moto`).
    final class Setup {
        let moto: MotoS3Server
        let client: S3Client
        let directory: String
        let flags: [String]
        let environment: [String: String]

        init() async throws {
            moto = try await MotoS3Server()
            try await moto.createBucket("photos")
            let endpoint = moto.endpoint(alias: "moto")
            client = S3Client(endpoint: endpoint, pool: BlockingWorkPool(threadCount: 2))
            directory = try WorkerCLITestKit.makeDirectory("s3-cli")
            flags = ["--s3-endpoint", "moto=\(endpoint.url);region=\(endpoint.region);addressing=path", "--allow-bucket", "moto@photos"]
            let credentials = try #require(endpoint.credentials)
            environment = [
                "DARKROOM_S3_MOTO_ACCESS_KEY_ID": credentials.accessKeyID, "DARKROOM_S3_MOTO_SECRET_ACCESS_KEY": credentials.secretAccessKey,
            ]
            for (key, width) in [("in/a.jpg", 200), ("in/b.jpg", 160), ("in/sub/d.jpg", 120)] {
                _ = try await put(key, try WorkerCLITestKit.image(.jpeg, width: width, height: 100))
            }
            _ = try await put("in/c.png", try WorkerCLITestKit.image(.png, width: 80, height: 80))
        }

        deinit { WorkerCLITestKit.remove(directory) }

        func put(_ key: String, _ bytes: [UInt8]) async throws -> String {
            try await client.putObject(bucket: "photos", key: key, bytes: bytes, contentType: nil, cacheControl: nil)
        }

        func darkroom(_ arguments: [String]) async throws -> WorkerCLITestKit.Run {
            try await WorkerCLITestKit.run(arguments, in: directory, environment: environment)
        }
    }

    @Test("darkroom process s3://… 'resize(100x100)' -o out.jpg")
    func process() async throws {
        let setup = try await Setup()
        let run = try await setup.darkroom(["process", "s3://moto@photos/in/a.jpg", "-p", "resize(100x100)", "-o", "out.jpg"] + setup.flags)
        #expect(run.status == 0, "\(run.error)")
        #expect(try WorkerCLITestKit.decode(setup.directory + "/out.jpg").bitmap.size == PixelSize(width: 100, height: 50), "fit: 200×100 into 100×100")

        let refused = try await setup.darkroom(["process", "s3://moto@photos/in/a.jpg", "-p", "resize(100x100)", "-o", "no.jpg"])
        #expect(refused.status != 0)
        #expect(refused.error.contains("source.refused"), "\(refused.error)")
        #expect(!FileManager.default.fileExists(atPath: setup.directory + "/no.jpg"))
    }

    @Test("darkroom run 's3://bucket/in/*.jpg' --out DIR makes one output per matching object; a replaced object is fetched again")
    func runGlob() async throws {
        let setup = try await Setup()
        let arguments = ["run", "s3://moto@photos/in/*.jpg", "-p", "downsample(50x50)", "--out", "out", "--cache", "cache"] + setup.flags
        let first = try await setup.darkroom(arguments)
        #expect(first.status == 0, "\(first.error)")
        let names = try FileManager.default.contentsOfDirectory(atPath: setup.directory + "/out").sorted()
        #expect(names == ["a.jpg", "b.jpg"], "the glob's '*' stays within in/")
        #expect(try WorkerCLITestKit.decode(setup.directory + "/out/a.jpg").bitmap.size == PixelSize(width: 50, height: 25))

        // The same key, new bytes: the listing records the new ETag, so the cached result is not reused.
        _ = try await setup.put("in/a.jpg", try WorkerCLITestKit.image(.jpeg, width: 100, height: 100))
        try FileManager.default.removeItem(atPath: setup.directory + "/out")
        let second = try await setup.darkroom(arguments)
        #expect(second.status == 0, "\(second.error)")
        #expect(try WorkerCLITestKit.decode(setup.directory + "/out/a.jpg").bitmap.size == PixelSize(width: 50, height: 50))

        let none = try await setup.darkroom(["run", "s3://moto@photos/none/*.jpg", "-p", "blur(1)", "--out", "out2"] + setup.flags)
        #expect(none.status == 2 && none.error.contains("matches no object"), "\(none.error)")
    }

    @Test("darkroom enqueue of a glob sends one job per matching object, pinned to its ETag and requiring source:s3")
    func enqueueGlob() async throws {
        let setup = try await Setup()
        let redis = try RedisTestServer()
        defer { redis.stop() }
        let run = try await setup.darkroom(
            ["enqueue", "s3://moto@photos/in/**", "-p", "blur(1)", "--batch", "listed", "--print-ids", "--allow-unoffered", "--redis", redis.url]
                + setup.flags)
        #expect(run.status == 0, "\(run.error)")
        let sources = run.output.split(separator: "\n").compactMap { $0.split(separator: "\t").last.map(String.init) }.filter { $0.hasPrefix("s3://") }
        #expect(sources.count == 4, "\(run.output)")
        #expect(sources.allSatisfy { $0.hasPrefix("s3://moto@photos;etag=") }, "\(sources)")
        #expect(run.output.contains("batch listed: 4 jobs enqueued"), "\(run.output)")

        let notAllowed = try await setup.darkroom(["enqueue", "s3://moto@other/in/", "-p", "blur(1)", "--redis", redis.url] + setup.flags)
        #expect(notAllowed.status == 2 && notAllowed.error.contains("--allow-bucket"), "\(notAllowed.error)")
    }
}
