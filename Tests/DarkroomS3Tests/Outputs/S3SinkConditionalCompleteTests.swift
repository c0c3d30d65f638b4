import DarkroomOutput
import DarkroomSystem
import DarkroomTestSupport
import Testing

@testable import DarkroomS3

/// The conditional completion of a multipart upload (`If-None-Match: *`), against the test
/// support's own HTTP server: moto may complete regardless, and a race between two workers is
/// made here by answering the completion 412 as S3 does when another upload took the key first.
@Suite("S3Sink: a conditional CompleteMultipartUpload and its 412", .realTime)
struct S3SinkConditionalCompleteTests {
    static let bytes: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    /// A bucket `b` whose key is free until the completion, which is refused (412) because
    /// another writer completed first with bytes whose SHA-256 is `winner`.
    static func server(winner: String, completions: Locked<[TestHTTPRequest]>) throws -> TestHTTPServer {
        let taken = Locked(false)
        return try TestHTTPServer { request in
            let query = request.target.drop { $0 != "?" }
            switch request.method {
            case "HEAD":
                guard taken.withLock({ $0 }) else { return TestHTTPResponse(status: 404) }
                // No Content-Length from the server (the body is empty): the object's own.
                return TestHTTPResponse(
                    status: 200,
                    headers: [
                        ("ETag", "\"0123456789abcdef0123456789abcdef-1\""), ("Content-Length", String(Self.bytes.count)),
                        ("x-amz-meta-darkroom-sha256", winner),
                    ], body: .untilClose([]))
            case "POST" where query.hasPrefix("?uploads"):
                return .ok(Array("<InitiateMultipartUploadResult><UploadId>u1</UploadId></InitiateMultipartUploadResult>".utf8))
            case "PUT":
                return TestHTTPResponse(status: 200, headers: [("ETag", "\"5d41402abc4b2a76b9719d911017c592\"")])
            case "POST":
                completions.withLock { $0.append(request) }
                taken.withLock { $0 = true }
                return S3ClientFaultTests.xmlError(412, "PreconditionFailed")
            case "DELETE":
                return TestHTTPResponse(status: 204)
            default:
                // The listing of earlier uploads: refused, which the sink takes as nothing to abort.
                return S3ClientFaultTests.xmlError(403, "AccessDenied")
            }
        }
    }

    static func sink(_ server: TestHTTPServer) -> S3Sink {
        let client = S3ClientFaultTests.client(server)
        return S3Sink(
            configuration: S3Configuration(endpoints: [client.endpoint], allowedBuckets: [S3Bucket(endpoint: "fault", name: "b")]),
            stores: ["fault": client], options: S3SinkOptions(multipartThreshold: 1))
    }

    @Test("Given a multipart output under .refuse, then its completion carries If-None-Match: *; a 412 with these bytes stored is success")
    func sameBytes() async throws {
        let completions = Locked<[TestHTTPRequest]>([])
        let server = try Self.server(winner: StoredOutput.sha256(of: Self.bytes), completions: completions)
        defer { server.stop() }
        let stored = try await Self.sink(server).store(Self.bytes, named: "big.png", in: "s3://fault@b/x/", owner: nil, onConflict: .refuse)
        #expect(completions.withLock { $0.map { $0.header("If-None-Match") } } == ["*"])
        // The ETag is the stored object's, as the HEAD after the refusal answered it.
        #expect(stored.etag == "0123456789abcdef0123456789abcdef-1")
        #expect(stored.location == "s3://fault@b/x/big.png")
    }

    @Test("Given a 412 on completion and other bytes stored, then output.taken, and the upload is aborted")
    func otherBytes() async throws {
        let completions = Locked<[TestHTTPRequest]>([])
        let server = try Self.server(winner: String(repeating: "0", count: 64), completions: completions)
        defer { server.stop() }
        let error = await #expect(throws: OutputError.self) {
            try await Self.sink(server).store(Self.bytes, named: "big.png", in: "s3://fault@b/x/", owner: nil, onConflict: .refuse)
        }
        #expect(error?.code == .taken)
        #expect(server.requests.contains { $0.method == "DELETE" && $0.target.contains("uploadId=u1") })
    }

    @Test("Given .replace, then the completion is unconditional")
    func replaceIsUnconditional() async throws {
        let completions = Locked<[TestHTTPRequest]>([])
        let server = try TestHTTPServer { request in
            if request.method == "POST", request.target.contains("?uploads") {
                return .ok(Array("<InitiateMultipartUploadResult><UploadId>u1</UploadId></InitiateMultipartUploadResult>".utf8))
            }
            if request.method == "POST" {
                completions.withLock { $0.append(request) }
                return .ok(Array("<CompleteMultipartUploadResult><ETag>\"abc-1\"</ETag></CompleteMultipartUploadResult>".utf8))
            }
            if request.method == "PUT" { return TestHTTPResponse(status: 200, headers: [("ETag", "\"e\"")]) }
            return S3ClientFaultTests.xmlError(403, "AccessDenied")
        }
        defer { server.stop() }
        let stored = try await Self.sink(server).store(Self.bytes, named: "big.png", in: "s3://fault@b/x/", owner: nil, onConflict: .replace)
        #expect(stored.etag == "abc-1")
        #expect(completions.withLock { $0.map { $0.header("If-None-Match") } } == [nil])
    }
}
