import Crypto
import DarkroomSystem
import DarkroomTestSupport
import Testing

@testable import DarkroomS3

/// The client against a real S3-compatible server (moto) that checks every signature.
@Suite("S3 client against moto", .realTime)
struct S3ClientMotoTests {
    static let pool = BlockingWorkPool(threadCount: 2)

    static func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    @Test("PUT, GET and HEAD round trip with the ETag (the body's MD5) and the content type")
    func roundTrip() async throws {
        let moto = try await MotoS3Server()
        defer { moto.stop() }
        try await moto.createBucket("darkroom-round-trip")
        let client = S3Client(endpoint: moto.endpoint(), pool: Self.pool)
        let body = Self.bytes(10_000, seed: 1)
        let key = "photos/2026/a b.jpg"
        let etag = try await client.putObject(
            bucket: "darkroom-round-trip", key: key, bytes: body, contentType: "image/jpeg", cacheControl: "max-age=60")
        #expect(etag == HexDigits.lowercase(Insecure.MD5.hash(data: body)))
        let object = try await client.getObject(bucket: "darkroom-round-trip", key: key, maxBytes: 1 << 20)
        #expect(object.bytes == body && object.etag == etag && object.contentType == "image/jpeg")
        #expect(object.lastModified != nil)
        let head = try await client.headObject(bucket: "darkroom-round-trip", key: key)
        #expect(head.etag == etag && head.size == body.count && head.contentType == "image/jpeg")
    }

    @Test("ListObjectsV2 pages over keys with '/', spaces, '+', '=', '%', 'é' and '日本'")
    func listingPages() async throws {
        let moto = try await MotoS3Server()
        defer { moto.stop() }
        try await moto.createBucket("darkroom-listing")
        let client = S3Client(endpoint: moto.endpoint(), pool: Self.pool)
        let keys = ["in/a/1.jpg", "in/a b.jpg", "in/c+d.jpg", "in/e=f.jpg", "in/100%.jpg", "in/café.jpg", "in/日本/写真.jpg"]
        for (index, key) in (keys + ["out/x.jpg"]).enumerated() {
            _ = try await client.putObject(
                bucket: "darkroom-listing", key: key, bytes: Self.bytes(index + 1, seed: 2), contentType: nil, cacheControl: nil)
        }
        var listed: [S3ListedObject] = []
        var token: String?
        var pages = 0
        repeat {
            let page = try await client.listObjects(bucket: "darkroom-listing", prefix: "in/", continuationToken: token, maxKeys: 2)
            #expect(page.objects.count <= 2)
            listed += page.objects
            token = page.nextContinuationToken
            pages += 1
        } while token != nil && pages < 20
        #expect(Set(listed.map(\.key)) == Set(keys))
        #expect(listed.count == keys.count && pages == 4)
        for object in listed {
            let index = try #require(keys.firstIndex(of: object.key))
            #expect(object.size == index + 1 && !object.etag.isEmpty && !object.etag.contains("\""))
        }
        // Each listed key reads back as itself.
        for key in keys {
            _ = try await client.headObject(bucket: "darkroom-listing", key: key)
        }
    }

    @Test("A missing object is not found; a wrong secret is a credentials error")
    func refusals() async throws {
        let moto = try await MotoS3Server()
        defer { moto.stop() }
        try await moto.createBucket("darkroom-refusals")
        let client = S3Client(endpoint: moto.endpoint(), pool: Self.pool)
        do {
            _ = try await client.getObject(bucket: "darkroom-refusals", key: "missing.jpg", maxBytes: 1000)
            Issue.record("a missing object was returned")
        } catch {
            #expect(error.kind == .notFound && error.status == 404)
        }
        do {
            _ = try await client.headObject(bucket: "darkroom-refusals", key: "missing.jpg")
            Issue.record("a missing object had a head")
        } catch {
            #expect(error.kind == .notFound)
        }
        let wrong = S3Client(endpoint: moto.wrongSecretEndpoint, pool: Self.pool)
        do {
            _ = try await wrong.putObject(bucket: "darkroom-refusals", key: "k", bytes: [1], contentType: nil, cacheControl: nil)
            Issue.record("a wrong secret was accepted")
        } catch {
            #expect(error.kind == .credentials && error.serviceCode == "SignatureDoesNotMatch" && error.isTransient)
            #expect(!error.message.contains(moto.credentials.secretAccessKey))
        }
    }

    @Test("Multipart: create, upload parts, list, complete; another aborted and gone from the list")
    func multipart() async throws {
        let moto = try await MotoS3Server()
        defer { moto.stop() }
        try await moto.createBucket("darkroom-multipart")
        let client = S3Client(endpoint: moto.endpoint(), pool: Self.pool)
        let bucket = "darkroom-multipart"
        let key = "out/big é.bin"
        let first = Self.bytes(5 << 20, seed: 3)
        let second = Self.bytes(1_000, seed: 4)
        let id = try await client.createMultipartUpload(bucket: bucket, key: key, contentType: "application/octet-stream", cacheControl: nil)
        let parts = [
            try await client.uploadPart(bucket: bucket, key: key, uploadID: id, number: 1, bytes: first),
            try await client.uploadPart(bucket: bucket, key: key, uploadID: id, number: 2, bytes: second),
        ]
        let open = try await client.listMultipartUploads(bucket: bucket, prefix: "out/")
        let listed = try #require(open.first { $0.uploadID == id })
        #expect(listed.key == key && listed.initiatedEpochSeconds != nil)
        let etag = try await client.completeMultipartUpload(bucket: bucket, key: key, uploadID: id, parts: parts.reversed())
        #expect(etag.hasSuffix("-2") && !etag.contains("\""))
        let object = try await client.getObject(bucket: bucket, key: key, maxBytes: 8 << 20)
        #expect(object.bytes == first + second && object.etag == etag)

        let abandoned = try await client.createMultipartUpload(bucket: bucket, key: "out/abandoned", contentType: nil, cacheControl: nil)
        _ = try await client.uploadPart(bucket: bucket, key: "out/abandoned", uploadID: abandoned, number: 1, bytes: second)
        try await client.abortMultipartUpload(bucket: bucket, key: "out/abandoned", uploadID: abandoned)
        let left = try await client.listMultipartUploads(bucket: bucket, prefix: "out/")
        #expect(!left.contains { $0.uploadID == abandoned || $0.uploadID == id })
    }
}
