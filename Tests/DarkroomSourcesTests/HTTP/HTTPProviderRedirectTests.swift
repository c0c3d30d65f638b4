import DarkroomTestSupport
import Testing

@testable import DarkroomSources

@Suite("HTTP provider: redirects, each hop checked again")
struct HTTPProviderRedirectTests {
    typealias Support = HTTPTestSupport

    /// `/hop/N` redirects to `/hop/N-1`; `/hop/0` is the image.
    static func chainServer(image: [UInt8]) throws -> TestHTTPServer {
        try TestHTTPServer { request in
            guard request.path.hasPrefix("/hop/"), let n = Int(request.path.dropFirst(5)) else { return .status(404) }
            return n == 0 ? .ok(image) : .redirect(to: "/hop/\(n - 1)")
        }
    }

    @Test("A relative redirect is followed and the final location reported", arguments: [301, 302, 303, 307, 308])
    func singleRedirect(status: Int) async throws {
        let image = Support.bytes(500)
        let server = try TestHTTPServer { request in
            request.path == "/old.jpg" ? .redirect(status, to: "/new.jpg") : .ok(image)
        }
        defer { server.stop() }
        let source = try await Support.fetch(server.url("/old.jpg"), policy: Support.policy(allowing: server)).get()
        #expect(source.bytes == image)
        #expect(source.finalLocation == server.url("/new.jpg"))
        #expect(source.cacheKey == server.url("/old.jpg"))
        #expect(server.requestCount("/old.jpg") == 1 && server.requestCount("/new.jpg") == 1)
    }

    @Test("A chain as long as the limit is followed; one more hop is too many and is not requested")
    func chainLimit() async throws {
        let image = Support.bytes(100)
        let server = try Self.chainServer(image: image)
        defer { server.stop() }
        var policy = Support.policy(allowing: server)
        policy.maxRedirects = 3
        #expect(try await Support.fetch(server.url("/hop/3"), policy: policy).get().bytes == image)

        let error = try #require(await Support.failure(server.url("/hop/9"), policy: policy))
        #expect(error.code == .tooManyRedirects)
        #expect(!error.isTransient)
        #expect(error.message.contains("--max-redirects"))
        // /hop/9, /hop/8, /hop/7, /hop/6 were requested; /hop/5 (the fourth redirect) never was.
        #expect(server.requestCount("/hop/6") == 1)
        #expect(server.requestCount("/hop/5") == 0)
    }

    @Test("With no redirects allowed, the first redirect is already too many")
    func zeroRedirects() async throws {
        let server = try Self.chainServer(image: [1])
        defer { server.stop() }
        var policy = Support.policy(allowing: server)
        policy.maxRedirects = 0
        let error = try #require(await Support.failure(server.url("/hop/1"), policy: policy))
        #expect(error.code == .tooManyRedirects)
        #expect(server.requestCount("/hop/0") == 0)
    }

    @Test(
        "Redirects out of the allow-list, to other schemes or to credentials are refused before connecting",
        arguments: [
            "http://10.0.0.1/a.jpg", "http://169.254.169.254/latest/meta-data/", "ftp://127.0.0.1/a.jpg",
            "file:///etc/passwd", "gopher://127.0.0.1:6379/_INFO", "http://user:pw@127.0.0.1/",
        ])
    func refusedTargets(location: String) async throws {
        let server = try TestHTTPServer { _ in .redirect(to: location) }
        defer { server.stop() }
        let error = try #require(await Support.failure(server.url("/start.jpg"), policy: Support.policy(allowing: server)))
        #expect(error.code == .refused)
        #expect(error.message.contains("redirects to \(location)"))
        #expect(server.connectionCount == 1)
    }

    @Test("A redirect from the allowed host to another spelling of it (localhost) is refused and not requested")
    func redirectToLocalhost() async throws {
        let server = try TestHTTPServer { request in
            let port = request.origin.split(separator: ":").last ?? ""
            return request.path == "/start.jpg" ? .redirect(to: "http://localhost:\(port)/secret") : .ok([9, 9, 9])
        }
        defer { server.stop() }
        let error = try #require(await Support.failure(server.url("/start.jpg"), policy: Support.policy(allowing: server)))
        #expect(error.code == .refused)
        #expect(server.requestCount("/secret") == 0)
    }

    @Test("Given only 127.0.0.1 allowed by address range, a redirect to 127.0.0.2 is refused at connect time")
    func connectTimeCheckOnRedirectHop() async throws {
        let inner = try TestHTTPServer(host: "127.0.0.2") { _ in .ok([7, 7, 7]) }
        defer { inner.stop() }
        let outer = try TestHTTPServer { _ in .redirect(to: inner.url("/internal.jpg")) }
        defer { outer.stop() }
        var policy = Support.defaultPolicy  // no allow-list: every hop is judged by its address
        policy.allowedAddressRanges = ["127.0.0.1/32"]

        let error = try #require(await Support.failure(outer.url("/start.jpg"), policy: policy))
        #expect(error.code == .refused)
        #expect(error.message.contains("redirects to \(inner.url("/internal.jpg"))"))
        #expect(error.message.contains("127.0.0.2 is a loopback address"))
        #expect(inner.connectionCount == 0)

        // The control: allowing 127.0.0.2 too lets the same redirect through.
        policy.allowedAddressRanges.append("127.0.0.2")
        #expect(try await Support.fetch(outer.url("/start.jpg"), policy: policy).get().bytes == [7, 7, 7])
        #expect(inner.requestCount("/internal.jpg") == 1)
    }

    @Test("Given an address-range policy, a redirect to a private address is refused without waiting to connect")
    func redirectToPrivateByAddress() async throws {
        let server = try TestHTTPServer { _ in .redirect(to: "http://10.0.0.1:8080/a.jpg") }
        defer { server.stop() }
        var policy = Support.defaultPolicy
        policy.allowedAddressRanges = ["127.0.0.1"]
        policy.connectTimeout = 30  // a real connect attempt to 10.0.0.1 would hang the test
        policy.totalTimeout = 30
        let error = try #require(await Support.failure(server.url("/start.jpg"), policy: policy))
        #expect(error.code == .refused)
        #expect(error.message.contains("10.0.0.1 is a private (RFC 1918) address"))
    }
}
