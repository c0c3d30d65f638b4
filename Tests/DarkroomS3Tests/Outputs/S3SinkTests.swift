import DarkroomOutput
import DarkroomSystem
import DarkroomTestSupport
import Testing

@testable import DarkroomS3

/// What `S3Sink` does beyond the contract, on a real moto server: headers, multipart uploads and
/// their failures, orphans and the sweep, the error codes.
@Suite("S3Sink on moto: headers, multipart, orphans, errors", .realTime, .serialized)
struct S3SinkTests {
    static let mebibyte = 1024 * 1024
    /// Low enough that a test's output goes up in parts; parts of 5 MiB, moto's least.
    static let multipart = S3SinkOptions(multipartThreshold: 6 * mebibyte, partSize: 5 * mebibyte)

    static func bytes(_ count: Int, seed: UInt8 = 1) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    @Test("Given an output, then the object has the bytes, a Content-Type from its extension, and the event's ETag")
    func headers() async throws {
        let server = try await S3SinkTestKit.server()
        let client = S3SinkTestKit.client(server)
        let sink = S3SinkTestKit.sink(server, options: S3SinkOptions(cacheControl: "public, max-age=60"))
        let prefix = S3SinkTestKit.prefix("h")
        let stored = try await sink.store(Self.bytes(1000), named: "cat.webp", in: "s3://outputs/\(prefix)", onConflict: .refuse)
        #expect(stored.location == "s3://outputs/\(prefix)cat.webp")
        let object = try await client.getObject(bucket: "outputs", key: prefix + "cat.webp", maxBytes: 1 << 20)
        #expect(object.bytes == Self.bytes(1000))
        #expect(object.contentType == "image/webp")
        #expect(stored.etag == object.etag)
        // A prefix without its trailing slash names the same place, as a directory would.
        let again = try await sink.store(Self.bytes(1000), named: "cat.webp", in: "s3://outputs/\(prefix.dropLast())", onConflict: .refuse)
        #expect(again == stored)
    }

    @Test("Given an output above the threshold, then it goes up in parts, whole, and a redelivery recognises it")
    func multipart() async throws {
        let server = try await S3SinkTestKit.server()
        let client = S3SinkTestKit.client(server)
        let sink = S3SinkTestKit.sink(server, options: Self.multipart)
        let prefix = S3SinkTestKit.prefix("m")
        let bytes = Self.bytes(11 * Self.mebibyte)
        let stored = try await sink.store(bytes, named: "big.png", in: "s3://outputs/\(prefix)", onConflict: .refuse)
        #expect(stored.etag?.hasSuffix("-3") == true)
        // The service's multipart ETag is the one the sink computes to recognise these bytes.
        #expect(stored.etag == S3OutputChecksums.multipartETag(bytes, partSize: 5 * Self.mebibyte))
        let object = try await client.getObject(bucket: "outputs", key: prefix + "big.png", maxBytes: 1 << 30)
        #expect(object.bytes == bytes)
        #expect(object.contentType == "image/png")
        let again = try await sink.store(bytes, named: "big.png", in: "s3://outputs/\(prefix)", onConflict: .refuse)
        #expect(again == stored)
        #expect(try await client.listMultipartUploads(bucket: "outputs", prefix: prefix).isEmpty)
        let different = await #expect(throws: OutputError.self) {
            try await sink.store(Self.bytes(11 * Self.mebibyte, seed: 2), named: "big.png", in: "s3://outputs/\(prefix)", onConflict: .refuse)
        }
        #expect(different?.code == .taken)
    }

    @Test("Given a part that fails, then the upload is aborted: no object, no upload left, a transient error")
    func failedPartAborts() async throws {
        let server = try await S3SinkTestKit.server()
        let client = S3SinkTestKit.client(server)
        let sink = S3SinkTestKit.sink(server, options: Self.multipart) { FailingPartStore(base: $0, failingPart: 2) }
        let prefix = S3SinkTestKit.prefix("f")
        let error = await #expect(throws: OutputError.self) {
            try await sink.store(Self.bytes(11 * Self.mebibyte), named: "big.png", in: "s3://outputs/\(prefix)", onConflict: .refuse)
        }
        #expect(error?.code == .unavailable)
        #expect(error?.isTransient == true)
        #expect(try await client.listMultipartUploads(bucket: "outputs", prefix: prefix).isEmpty)
        #expect(S3SinkTestKit.entries(prefix, client: client).isEmpty)
    }

    @Test("Given an upload an earlier attempt left for the same key, then the next attempt aborts it before its own")
    func earlierAttemptsOrphanIsAborted() async throws {
        let server = try await S3SinkTestKit.server()
        let client = S3SinkTestKit.client(server)
        let prefix = S3SinkTestKit.prefix("o")
        let orphan = try await client.createMultipartUpload(bucket: "outputs", key: prefix + "big.png", contentType: nil, cacheControl: nil)
        let other = try await client.createMultipartUpload(bucket: "outputs", key: prefix + "other.png", contentType: nil, cacheControl: nil)
        let sink = S3SinkTestKit.sink(server, options: Self.multipart)
        _ = try await sink.store(Self.bytes(7 * Self.mebibyte), named: "big.png", in: "s3://outputs/\(prefix)", onConflict: .replace)
        let left = try await client.listMultipartUploads(bucket: "outputs", prefix: prefix)
        #expect(!left.contains { $0.uploadID == orphan })
        #expect(left.map(\.uploadID) == [other])
        try await client.abortMultipartUpload(bucket: "outputs", key: prefix + "other.png", uploadID: other)
    }

    @Test("Given an unfinished upload, then a sweep with age 0 aborts it, and one with an hour leaves it a minute after it began")
    func sweep() async throws {
        let server = try await S3SinkTestKit.server()
        let client = S3SinkTestKit.client(server)
        let prefix = S3SinkTestKit.prefix("s")
        let upload = try await client.createMultipartUpload(bucket: "outputs", key: prefix + "x.png", contentType: nil, cacheControl: nil)
        let sink = S3SinkTestKit.sink(server)
        // moto reports every upload as begun at 2010-11-10T20:48:33Z: the clock is set from there.
        let initiated = 1_289_422_113
        let young = await sink.sweepUploads(olderThan: .seconds(3600), now: initiated + 60)
        #expect(!young.aborted.contains("s3://outputs/\(prefix)x.png"))
        #expect(try await client.listMultipartUploads(bucket: "outputs", prefix: prefix).map(\.uploadID) == [upload])
        let swept = await sink.sweepUploads(olderThan: .zero)
        #expect(swept.aborted.contains("s3://outputs/\(prefix)x.png"))
        #expect(swept.failures.isEmpty)
        #expect(try await client.listMultipartUploads(bucket: "outputs", prefix: prefix).isEmpty)
    }

    @Test("Errors: a bucket not allowed is refused in prepare; a missing bucket cannot be written; a wrong secret is transient")
    func errors() async throws {
        let server = try await S3SinkTestKit.server()
        let sink = S3SinkTestKit.sink(server)
        let refused = await #expect(throws: OutputError.self) { try await sink.prepare("s3://elsewhere/x/") }
        #expect(refused?.code == .notAllowed)
        let unknownAlias = await #expect(throws: OutputError.self) { try await sink.prepare("s3://minio@outputs/x/") }
        #expect(unknownAlias?.code == .notAllowed)
        let badKey = await #expect(throws: OutputError.self) { try await sink.prepare("s3://outputs/a/../b/") }
        #expect(badKey?.code == .notAllowed)

        var configuration = S3SinkTestKit.configuration(server)
        configuration.allowedBuckets.insert(S3Bucket(endpoint: S3Endpoint.defaultAlias, name: "missing"))
        let missing = S3Sink(configuration: configuration, pool: S3SinkTestKit.pool)
        let notThere = await #expect(throws: OutputError.self) {
            try await missing.store([1], named: "a.png", in: "s3://missing/x/", onConflict: .replace)
        }
        #expect(notThere?.code == .cannotWrite)

        let wrong = S3Configuration(
            endpoints: [server.wrongSecretEndpoint], allowedBuckets: [S3Bucket(endpoint: server.wrongSecretEndpoint.alias, name: "outputs")])
        let denied = await #expect(throws: OutputError.self) {
            try await S3Sink(configuration: wrong, pool: S3SinkTestKit.pool).store(
                [1], named: "a.png", in: "s3://\(S3Bucket(endpoint: server.wrongSecretEndpoint.alias, name: "outputs"))/x/", onConflict: .refuse)
        }
        #expect(denied?.code == .credentials)
        #expect(denied?.isTransient == true)
        #expect(denied?.message.contains(server.wrongSecretEndpoint.credentials?.secretAccessKey ?? "-") == false)
    }
}

/// The real client, but part `failingPart` of every upload fails as a 500 would.
struct FailingPartStore: S3OutputStore {
    let base: S3Client
    let failingPart: Int

    func head(bucket: String, key: String) async throws(S3Error) -> S3OutputHead? { try await base.head(bucket: bucket, key: key) }
    func put(bucket: String, key: String, bytes: [UInt8], headers: S3OutputHeaders, onlyIfAbsent: Bool) async throws(S3Error) -> String {
        try await base.put(bucket: bucket, key: key, bytes: bytes, headers: headers, onlyIfAbsent: onlyIfAbsent)
    }
    func createUpload(bucket: String, key: String, headers: S3OutputHeaders) async throws(S3Error) -> String {
        try await base.createUpload(bucket: bucket, key: key, headers: headers)
    }
    func uploadPart(bucket: String, key: String, uploadID: String, number: Int, bytes: [UInt8]) async throws(S3Error) -> S3CompletedPart {
        if number == failingPart { throw S3Error(.server, "UploadPart: 500 InternalError (injected)", status: 500, serviceCode: "InternalError") }
        return try await base.uploadPart(bucket: bucket, key: key, uploadID: uploadID, number: number, bytes: bytes)
    }
    func completeUpload(bucket: String, key: String, uploadID: String, parts: [S3CompletedPart], onlyIfAbsent: Bool) async throws(S3Error) -> String {
        try await base.completeUpload(bucket: bucket, key: key, uploadID: uploadID, parts: parts, onlyIfAbsent: onlyIfAbsent)
    }
    func abortUpload(bucket: String, key: String, uploadID: String) async throws(S3Error) {
        try await base.abortUpload(bucket: bucket, key: key, uploadID: uploadID)
    }
    func listUploads(bucket: String, prefix: String) async throws(S3Error) -> [S3MultipartUpload] {
        try await base.listUploads(bucket: bucket, prefix: prefix)
    }
}
