import DarkroomS3
import DarkroomTestSupport
import Foundation
import Testing

/// `darkroom run` and `darkroom process` writing their outputs to a bucket (`BucketOutput`), on moto.
@Suite("darkroom run and process --out s3://… and -o s3://…, against moto", .realTime, .serialized)
struct BucketOutputRealTimeTests {
    /// The sources of `S3CommandRealTimeTests.Setup`, and the bucket `thumbs` allowed for outputs.
    static func setup() async throws -> (setup: S3CommandRealTimeTests.Setup, flags: [String]) {
        let setup = try await S3CommandRealTimeTests.Setup()
        try await setup.moto.createBucket("thumbs")
        try await setup.moto.createBucket("elsewhere")
        return (setup, setup.flags + ["--allow-bucket", "moto@thumbs"])
    }

    /// The `result` of each `--json` record on `output`, by source.
    static func results(_ output: String) throws -> [String: [String: Any]] {
        var results: [String: [String: Any]] = [:]
        for line in output.split(separator: "\n") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            results[try #require(record["source"] as? String)] = record["result"] as? [String: Any]
        }
        return results
    }

    @Test("run --out s3://… writes each output as an object; --json and the text report give its URL and ETag")
    func run() async throws {
        let (setup, flags) = try await Self.setup()
        let run = try await setup.darkroom(
            ["run", "s3://moto@photos/in/*.jpg", "-p", "downsample(50x50)", "--format", "webp", "--out", "s3://moto@thumbs/run/", "--json"]
                + flags + ["--s3-cache-control", "public, max-age=60"])
        #expect(run.status == 0, "\(run.error)")
        let results = try Self.results(run.output)
        #expect(results.count == 2)
        // A listed source carries the ETag it was listed with (`s3://moto@photos;etag=…/in/a.jpg`).
        for (source, key) in [("/in/a.jpg", "run/a.webp"), ("/in/b.jpg", "run/b.webp")] {
            let result = try #require(results.first { $0.key.hasSuffix(source) }?.value, "\(results.keys)")
            #expect(result["output"] as? String == "s3://moto@thumbs/\(key)")
            let object = try await setup.client.getObject(bucket: "thumbs", key: key, maxBytes: 1 << 24)
            #expect(result["etag"] as? String == object.etag)
            #expect(result["bytes"] as? Int == object.bytes.count)
            #expect(object.contentType == "image/webp")
        }

        let text = try await setup.darkroom(
            ["run", "s3://moto@photos/in/a.jpg", "-p", "downsample(40x40)", "--out", "s3://moto@thumbs/text"] + flags)
        #expect(text.status == 0, "\(text.error)")
        let etag = try await setup.client.headObject(bucket: "thumbs", key: "text/a.jpg").etag
        #expect(text.error.contains("→ s3://moto@thumbs/text/a.jpg  ETag \(etag)"), "\(text.error)")
        #expect(text.output.contains("→ s3://moto@thumbs/text"))
        #expect(!FileManager.default.fileExists(atPath: setup.directory + "/s3:"))
    }

    @Test("process --out s3://…/ and -o s3://BUCKET/KEY write objects, the key of -o as given")
    func process() async throws {
        let (setup, flags) = try await Self.setup()
        let many = try await setup.darkroom(
            ["process", "s3://moto@photos/in/a.jpg", "s3://moto@photos/in/b.jpg", "-p", "downsample(50x50)", "--out", "s3://moto@thumbs/p/"]
                + flags)
        #expect(many.status == 0, "\(many.error)")
        for key in ["p/a.jpg", "p/b.jpg"] {
            let etag = try await setup.client.headObject(bucket: "thumbs", key: key).etag
            #expect(many.output.contains("→ s3://moto@thumbs/\(key)  ") && many.output.contains("ETag \(etag)"), "\(many.output)")
        }

        let one = try await setup.darkroom(
            ["process", "s3://moto@photos/in/c.png", "-p", "downsample(20x20)", "-o", "s3://moto@thumbs/single/x.png", "--json"] + flags)
        #expect(one.status == 0, "\(one.error)")
        let result = try #require(try Self.results(one.output)["s3://moto@photos/in/c.png"])
        let object = try await setup.client.getObject(bucket: "thumbs", key: "single/x.png", maxBytes: 1 << 24)
        #expect(result["output"] as? String == "s3://moto@thumbs/single/x.png")
        #expect(result["etag"] as? String == object.etag)
        #expect(object.contentType == "image/png")
        // A second run replaces the object, as a second `process -o FILE` replaces the file.
        let again = try await setup.darkroom(
            ["process", "s3://moto@photos/in/a.jpg", "-p", "downsample(20x20)", "-o", "s3://moto@thumbs/single/x.png"] + flags)
        #expect(again.status == 0, "\(again.error)")
        #expect(try await setup.client.getObject(bucket: "thumbs", key: "single/x.png", maxBytes: 1 << 24).bytes != object.bytes)
    }

    @Test("A bucket not allowed, a bad key, a prefix as -o: exit 2 before any work, nothing written")
    func refused() async throws {
        let (setup, flags) = try await Self.setup()
        let cases: [([String], String)] = [
            (["run", "s3://moto@photos/in/a.jpg", "--out", "s3://moto@elsewhere/x/"], "output.not-allowed"),
            (["run", "s3://moto@photos/in/a.jpg", "--out", "s3://thumbs/x/"], "output.not-allowed"),
            (["process", "s3://moto@photos/in/a.jpg", "-o", "s3://moto@elsewhere/x.jpg"], "output.not-allowed"),
            (["process", "s3://moto@photos/in/a.jpg", "-o", "s3://moto@thumbs/a/../x.jpg"], "output.not-allowed"),
            (["process", "s3://moto@photos/in/a.jpg", "--out", "s3://moto@thumbs/a/\u{7}/"], "output.not-allowed"),
            (["process", "s3://moto@photos/in/a.jpg", "-o", "s3://moto@thumbs/dir/"], "-o s3://moto@thumbs/dir/"),
        ]
        for (arguments, expected) in cases {
            let run = try await setup.darkroom(arguments + ["-p", "blur(1)"] + flags)
            #expect(run.status == 2, "\(arguments): \(run.error)")
            #expect(run.error.contains(expected), "\(arguments): \(run.error)")
        }
        let noBucket = try await setup.darkroom(["process", "in.jpg", "--out", "s3://moto@thumbs/x/"])
        #expect(noBucket.status == 2 && noBucket.error.contains("--allow-bucket"), "\(noBucket.error)")
        #expect(try await setup.client.listObjects(bucket: "thumbs", prefix: "", continuationToken: nil).objects.isEmpty)
        #expect(try await setup.client.listObjects(bucket: "elsewhere", prefix: "", continuationToken: nil).objects.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: setup.directory + "/s3:"))
    }
}
