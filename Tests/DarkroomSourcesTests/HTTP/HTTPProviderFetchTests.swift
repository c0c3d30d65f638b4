import DarkroomTestSupport
import Testing

@testable import DarkroomSources

@Suite("HTTP provider: fetching and classifying answers from a real server")
struct HTTPProviderFetchTests {
    typealias Support = HTTPTestSupport

    @Test("Given an allowed server, when a 200 is fetched, then the bytes, type, key and location come back")
    func fetchesBody() async throws {
        let image = Support.bytes(3000)
        let server = try TestHTTPServer { $0.path == "/a.jpg" ? .ok(image, contentType: "image/jpeg") : .status(404) }
        defer { server.stop() }
        let source = try await Support.fetch(server.url("/a.jpg#thumb"), policy: Support.policy(allowing: server)).get()
        #expect(source.bytes == image)
        #expect(source.contentType == "image/jpeg")
        #expect(source.cacheKey == server.url("/a.jpg"))
        #expect(source.finalLocation == server.url("/a.jpg"))
        #expect(server.requestCount("/a.jpg") == 1)
    }

    @Test("The request carries the policy's user agent and offers compressed transfer")
    func requestHeaders() async throws {
        let server = try TestHTTPServer { _ in .ok([1, 2, 3]) }
        defer { server.stop() }
        var policy = Support.policy(allowing: server)
        policy.userAgent = "DarkroomTest/1.0"
        _ = try await Support.fetch(server.url("/x"), policy: policy).get()
        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.header("User-Agent") == "DarkroomTest/1.0")
        #expect(request.header("Accept-Encoding")?.contains("gzip") == true)
    }

    @Test("A gzip-encoded body is decompressed by libcurl")
    func gzip() async throws {
        let server = try TestHTTPServer { _ in
            TestHTTPResponse(
                status: 200, headers: [("Content-Encoding", "gzip"), ("Content-Type", "image/png")],
                body: .fixed(Support.gzipBody))
        }
        defer { server.stop() }
        let source = try await Support.fetch(server.url("/z.png"), policy: Support.policy(allowing: server)).get()
        #expect(source.bytes == Support.gzipPayload)
    }

    @Test("Bodies without Content-Length arrive whole: chunked and connection-close")
    func unframedBodies() async throws {
        let image = Support.bytes(20_000, seed: 3)
        let server = try TestHTTPServer { request in
            request.path == "/chunked"
                ? TestHTTPResponse(status: 200, body: .chunked(image, chunkSize: 777))
                : TestHTTPResponse(status: 200, body: .untilClose(image))
        }
        defer { server.stop() }
        let policy = Support.policy(allowing: server)
        #expect(try await Support.fetch(server.url("/chunked"), policy: policy).get().bytes == image)
        #expect(try await Support.fetch(server.url("/close"), policy: policy).get().bytes == image)
    }

    @Test(
        "Statuses map to codes that say whether a retry can help",
        arguments: [
            (404, SourceError.Code.notFound, false), (410, .notFound, false), (401, .forbidden, false),
            (403, .forbidden, false), (400, .httpClientError, false), (418, .httpClientError, false),
            (408, .httpServerError, true), (429, .rateLimited, true), (500, .httpServerError, true),
            (503, .httpServerError, true), (300, .httpClientError, false),
        ] as [(Int, SourceError.Code, Bool)])
    func statuses(status: Int, code: SourceError.Code, transient: Bool) async throws {
        let server = try TestHTTPServer { _ in .status(status) }
        defer { server.stop() }
        let error = try #require(await Support.failure(server.url("/s.jpg"), policy: Support.policy(allowing: server)))
        #expect(error.code == code)
        #expect(error.isTransient == transient)
        #expect(error.source == server.url("/s.jpg"))
        #expect(error.message.contains("answered \(status)"))
    }

    @Test("A 404 whose error page is larger than the body limit is still a 404")
    func largeErrorPage() async throws {
        let server = try TestHTTPServer { _ in
            TestHTTPResponse(status: 404, body: .fixed(Support.bytes(200_000)))
        }
        defer { server.stop() }
        var policy = Support.policy(allowing: server)
        policy.maxBytes = 1000
        let error = try #require(await Support.failure(server.url("/gone.jpg"), policy: policy))
        #expect(error.code == .notFound)
    }

    @Test("A refused TCP connection is a transient connection error")
    func connectionRefused() async throws {
        let port = try Support.closedPort()
        var policy = Support.defaultPolicy
        policy.allowedSourcePrefixes = ["http://127.0.0.1:\(port)/"]
        let error = try #require(await Support.failure("http://127.0.0.1:\(port)/a.jpg", policy: policy))
        #expect(error.code == .connection)
        #expect(error.isTransient)
    }

    @Test("A server that hangs up without answering is a transient connection error")
    func hangUp() async throws {
        let server = try TestHTTPServer { _ in .hangUp }
        defer { server.stop() }
        let error = try #require(await Support.failure(server.url("/h.jpg"), policy: Support.policy(allowing: server)))
        #expect(error.code == .connection)
        #expect(error.isTransient)
        #expect(server.requestCount("/h.jpg") == 1)
    }

    @Test("https goes through TLS: a server that does not speak it fails the handshake, a transient connection error")
    func tlsHandshakeFailure() async throws {
        let server = try TestHTTPServer { _ in .ok([1]) }
        defer { server.stop() }
        var policy = Support.defaultPolicy
        policy.allowedSourcePrefixes = ["https://127.0.0.1:\(server.port)/"]
        let error = try #require(await Support.failure("https://127.0.0.1:\(server.port)/a.jpg", policy: policy))
        #expect(error.code == .connection)
        #expect(error.message.contains("TLS"), "\(error)")
        #expect(server.connectionCount == 1)
        #expect(server.requests.isEmpty)
    }

    @Test("An empty 200 is an empty body, not an error")
    func emptyBody() async throws {
        let server = try TestHTTPServer { _ in TestHTTPResponse(status: 200, body: .untilClose([])) }
        defer { server.stop() }
        let source = try await Support.fetch(server.url("/e"), policy: Support.policy(allowing: server)).get()
        #expect(source.bytes.isEmpty)
    }

    @Test("The cache key is the normalised URL, computed without fetching")
    func cacheKey() throws {
        let key = try HTTPTestSupport.provider.cacheKey(for: SourceReference("HTTP://Example.com:80/a.jpg#x"), policy: SourcePolicy())
        #expect(key == "http://example.com/a.jpg")
        #expect(try HTTPTestSupport.provider.cacheKey(for: SourceReference("http://example.com/a.jpg"), policy: SourcePolicy()) == key)
    }

    @Test("The cache key is refused for a URL the policy refuses, so a cached copy is not served either")
    func cacheKeyRefused() {
        var policy = SourcePolicy()
        policy.allowedSourcePrefixes = ["http://images.example.com/"]
        #expect {
            try HTTPTestSupport.provider.cacheKey(for: SourceReference("http://images.example.com@evil.com/a.jpg"), policy: policy)
        } throws: { ($0 as? SourceError)?.code == .refused }
        #expect {
            try HTTPTestSupport.provider.cacheKey(for: SourceReference("http://other.example.com/a.jpg"), policy: policy)
        } throws: { ($0 as? SourceError)?.code == .refused }
    }
}
