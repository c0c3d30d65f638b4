import DarkroomS3
import DarkroomTestSupport
import Foundation
import Glibc
import Testing

@Suite("darkroom health --s3-buckets, as a real process against moto (signatures checked)", .realTime, .serialized)
struct HealthBucketsRealTimeTests {
    /// moto with bucket `photos`, and a directory to run `darkroom health` in.
    final class Setup {
        let moto: MotoS3Server
        let directory: String

        init() async throws {
            moto = try await MotoS3Server()
            try await moto.createBucket("photos")
            directory = try WorkerCLITestKit.makeDirectory("health-s3")
        }

        deinit { WorkerCLITestKit.remove(directory) }

        var endpointFlag: [String] { ["--s3-endpoint", "moto=\(moto.origin);region=us-east-1;addressing=path"] }

        func environment(_ credentials: S3Credentials) -> [String: String] {
            ["DARKROOM_S3_MOTO_ACCESS_KEY_ID": credentials.accessKeyID, "DARKROOM_S3_MOTO_SECRET_ACCESS_KEY": credentials.secretAccessKey]
        }

        /// `darkroom health --no-redis --s3-buckets` with `flags`, signed with `credentials`.
        func health(_ flags: [String], credentials: S3Credentials? = nil) async throws -> WorkerCLITestKit.Run {
            try await WorkerCLITestKit.run(
                ["health", "--no-redis", "--s3-buckets"] + endpointFlag + flags, in: directory,
                environment: environment(credentials ?? moto.credentials))
        }
    }

    @Test("An allowed, existing bucket passes with HeadBucket; a missing one fails saying so; exit 1 when any fails")
    func existingAndMissing() async throws {
        let setup = try await Setup()
        let passing = try await setup.health(["--allow-bucket", "moto@photos"])
        #expect(passing.status == 0, "\(passing.output) \(passing.error)")
        #expect(passing.output.hasPrefix("ok   bucket s3://moto@photos: HeadBucket answered 200"), "\(passing.output)")

        let mixed = try await setup.health(["--allow-bucket", "moto@photos", "--allow-bucket", "moto@nothere"])
        #expect(mixed.status == 1, "\(mixed.output) \(mixed.error)")
        let lines = mixed.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(mixed.output)")
        #expect(lines.contains { $0.hasPrefix("FAIL bucket s3://moto@nothere: no such bucket") }, "\(mixed.output)")
        #expect(lines.contains { $0.hasPrefix("ok   bucket s3://moto@photos") }, "\(mixed.output)")
    }

    @Test("A wrong secret fails saying the credentials were refused (the 403 HEAD is followed by a GET that names the code)")
    func wrongSecret() async throws {
        let setup = try await Setup()
        let wrong = S3Credentials(accessKeyID: setup.moto.credentials.accessKeyID, secretAccessKey: "wrong-secret")
        let run = try await setup.health(["--allow-bucket", "moto@photos"], credentials: wrong)
        #expect(run.status == 1, "\(run.output) \(run.error)")
        #expect(run.output.hasPrefix("FAIL bucket s3://moto@photos: credentials refused (SignatureDoesNotMatch)"), "\(run.output)")
        #expect(!run.output.contains("wrong-secret"))
    }

    @Test("A worker's key that may read and write objects but not list the bucket passes through the missing-key GET")
    func workerKeyWithoutListBucket() async throws {
        let setup = try await Setup()
        let worker = try await setup.moto.createUser("worker", allowing: ["s3:GetObject", "s3:PutObject"])
        let run = try await setup.health(["--allow-bucket", "moto@photos", "--allow-bucket", "moto@nothere"], credentials: worker)
        #expect(run.status == 1, "\(run.output) \(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(
            lines.contains { $0.hasPrefix("ok   bucket s3://moto@photos: exists, credentials accepted: HeadBucket was refused (403") },
            "\(run.output)")
        #expect(lines.contains { $0.hasPrefix("FAIL bucket s3://moto@nothere: no such bucket (GetObject answered 404") }, "\(run.output)")
    }

    @Test("An endpoint that accepts the connection and never answers fails within --timeout")
    func silentEndpointTimesOut() async throws {
        let directory = try WorkerCLITestKit.makeDirectory("health-s3")
        defer { WorkerCLITestKit.remove(directory) }
        // Listening, never accepting: the kernel completes the connection, nothing answers.
        let (listener, port) = try TestHTTPServer.openListener(on: "127.0.0.1")
        defer { close(listener) }
        let start = ContinuousClock.now
        let run = try await WorkerCLITestKit.run(
            [
                "health", "--no-redis", "--s3-buckets", "--timeout", "1", "--s3-endpoint", "http://127.0.0.1:\(port)",
                "--allow-bucket", "photos",
            ], in: directory)
        #expect(run.status == 1, "\(run.output) \(run.error)")
        #expect(run.output.hasPrefix("FAIL bucket s3://photos: unreachable: HeadBucket"), "\(run.output)")
        #expect(ContinuousClock.now - start < .seconds(10), "bounded by --timeout 1, not the 30 s request default")
    }

    @Test("--s3-buckets without an allowed bucket is a usage error; without --s3-buckets the buckets are never checked")
    func usageAndLiveness() async throws {
        let directory = try WorkerCLITestKit.makeDirectory("health-s3")
        defer { WorkerCLITestKit.remove(directory) }
        let none = try await WorkerCLITestKit.run(["health", "--no-redis", "--s3-buckets"], in: directory)
        #expect(none.status == 2, "\(none.output) \(none.error)")
        #expect(none.error.contains("--s3-buckets: no bucket is allowed"), "\(none.error)")

        // A liveness probe in a container whose environment allows a bucket on a dead endpoint.
        _ = FileManager.default.createFile(atPath: directory + "/alive", contents: Data("x\n".utf8))
        let liveness = try await WorkerCLITestKit.run(
            ["health", "--no-redis", "--heartbeat-file", "alive"], in: directory,
            environment: ["DARKROOM_S3_ENDPOINTS": "http://127.0.0.1:1", "DARKROOM_S3_ALLOW_BUCKETS": "photos"])
        #expect(liveness.status == 0, "\(liveness.output) \(liveness.error)")
        #expect(!liveness.output.contains("bucket"), "\(liveness.output)")
    }
}
