import DarkroomSystem
import DarkroomTestSupport
import Testing

@testable import DarkroomS3

/// Faults moto cannot make, from the test support's own HTTP server: a stall mid-body, redirects,
/// throttling, server errors, a body over the limit; and what the client sends (Content-MD5).
@Suite("S3 client: faults from a test server", .realTime)
struct S3ClientFaultTests {
    static let pool = BlockingWorkPool(threadCount: 2)

    static func client(_ server: TestHTTPServer, limits: S3TransferLimits = .init()) -> S3Client {
        let endpoint = S3Endpoint(
            alias: "fault", url: server.origin,
            credentials: S3Credentials(accessKeyID: "AKIDFAULTTEST", secretAccessKey: "fault-secret"))
        return S3Client(endpoint: endpoint, pool: pool, limits: limits)
    }

    static func xmlError(_ status: Int, _ code: String) -> TestHTTPResponse {
        TestHTTPResponse(
            status: status, headers: [("Content-Type", "application/xml")],
            body: .fixed(Array("<?xml version=\"1.0\"?><Error><Code>\(code)</Code><Message>m</Message></Error>".utf8)))
    }

    static func failure(_ body: () async throws(S3Error) -> Void) async -> S3Error? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test("A server that stalls mid-body is a timeout within the low-speed limit")
    func stall() async throws {
        let server = try TestHTTPServer { _ in
            TestHTTPResponse(
                status: 200, headers: [("ETag", "\"e\"")],
                body: .drip(Array(repeating: 0x41, count: 64), bytesPerStep: 1, interval: .seconds(4), announceLength: true))
        }
        defer { server.stop() }
        var limits = S3TransferLimits()
        limits.lowSpeedSeconds = 1
        let start = ContinuousClock.now
        let error = await Self.failure { () async throws(S3Error) in
            _ = try await Self.client(server, limits: limits).getObject(bucket: "b", key: "k", maxBytes: 1 << 20)
        }
        #expect(error?.kind == .timeout)
        #expect(ContinuousClock.now - start < .seconds(8))
    }

    @Test("Redirects are refused, never followed", arguments: [301, 307])
    func redirect(status: Int) async throws {
        let server = try TestHTTPServer { request in
            request.path == "/b/k"
                ? TestHTTPResponse(
                    status: status, headers: [("Location", request.origin + "/elsewhere/k"), ("x-amz-bucket-region", "eu-west-1")])
                : .ok([1, 2, 3])
        }
        defer { server.stop() }
        let error = await Self.failure { () async throws(S3Error) in
            _ = try await Self.client(server).getObject(bucket: "b", key: "k", maxBytes: 1 << 20)
        }
        #expect(error?.kind == .redirect && error?.status == status)
        #expect(error?.message.contains("eu-west-1") == true)
        #expect(server.requests.count == 1)
        #expect(server.requestCount("/elsewhere/k") == 0)
    }

    @Test(
        "503 SlowDown is throttling; 500 is a server error; 404 is not found",
        arguments: [(503, "SlowDown", S3Error.Kind.throttled), (500, "InternalError", .server), (404, "NoSuchKey", .notFound)])
    func statuses(status: Int, code: String, kind: S3Error.Kind) async throws {
        let server = try TestHTTPServer { _ in Self.xmlError(status, code) }
        defer { server.stop() }
        let error = await Self.failure { () async throws(S3Error) in
            _ = try await Self.client(server).getObject(bucket: "b", key: "k", maxBytes: 1 << 20)
        }
        #expect(error?.kind == kind && error?.serviceCode == code && error?.status == status)
    }

    @Test("A body over maxBytes stops the transfer: too large")
    func tooLarge() async throws {
        let server = try TestHTTPServer { _ in
            TestHTTPResponse(status: 200, headers: [("ETag", "\"e\"")], body: .fixed(Array(repeating: 7, count: 100_000)))
        }
        defer { server.stop() }
        let error = await Self.failure { () async throws(S3Error) in
            _ = try await Self.client(server).getObject(bucket: "b", key: "k", maxBytes: 1_000)
        }
        #expect(error?.kind == .tooLarge)
    }

    @Test("A PUT carries Content-MD5, its type and caching, a signature, and no Expect")
    func putHeaders() async throws {
        let server = try TestHTTPServer { _ in TestHTTPResponse(status: 200, headers: [("ETag", "\"5d41402abc4b2a76b9719d911017c592\"")]) }
        defer { server.stop() }
        let etag = try await Self.client(server).putObject(
            bucket: "b", key: "a b/c+d.txt", bytes: Array("hello".utf8), contentType: "text/plain", cacheControl: "max-age=60")
        #expect(etag == "5d41402abc4b2a76b9719d911017c592")
        let request = try #require(server.requests.first)
        #expect(request.method == "PUT" && request.target == "/b/a%20b/c%2Bd.txt")
        #expect(request.header("Content-MD5") == "XUFAKrxLKna5cZ2REBfFkg==")
        #expect(request.header("Content-Type") == "text/plain" && request.header("Cache-Control") == "max-age=60")
        #expect(request.header("Expect") == nil)
        #expect(request.header("x-amz-content-sha256") == SigV4Signer.hexSHA256(Array("hello".utf8)))
        #expect(request.header("Authorization")?.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDFAULTTEST/") == true)
    }

    @Test("A 200 whose body is an <Error> fails CompleteMultipartUpload")
    func errorIn200() async throws {
        let server = try TestHTTPServer { _ in
            TestHTTPResponse(status: 200, body: .fixed(Array("<Error><Code>InternalError</Code></Error>".utf8)))
        }
        defer { server.stop() }
        let error = await Self.failure { () async throws(S3Error) in
            _ = try await Self.client(server).completeMultipartUpload(
                bucket: "b", key: "k", uploadID: "u", parts: [S3CompletedPart(number: 1, etag: "e")])
        }
        #expect(error?.kind == .server && error?.serviceCode == "InternalError")
    }

    @Test("Nothing listening is a connection error")
    func refused() async throws {
        let server = try TestHTTPServer { _ in .ok([]) }
        server.stop()
        let error = await Self.failure { () async throws(S3Error) in
            _ = try await Self.client(server).headObject(bucket: "b", key: "k")
        }
        #expect(error?.kind == .connection)
    }
}
