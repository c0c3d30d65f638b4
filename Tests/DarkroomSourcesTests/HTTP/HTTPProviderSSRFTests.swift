import DarkroomTestSupport
import Testing

@testable import DarkroomSources

@Suite("HTTP provider: the SSRF guard on resolved addresses")
struct HTTPProviderSSRFTests {
    typealias Support = HTTPTestSupport

    @Test(
        "With the default policy, every spelling of loopback is refused and the server sees no connection",
        arguments: [
            "127.0.0.1", "2130706433", "0x7f.1", "127.1", "017700000001", "0x7F000001", "0177.0.0.1", "127.0.0.1.",
            "localhost", "LOCALHOST", "localhost.", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[0:0:0:0:0:ffff:127.0.0.1]",
            "0.0.0.0", "0",
        ])
    func loopbackSpellings(host: String) async throws {
        let server = try TestHTTPServer { _ in .ok([1, 2, 3]) }
        defer { server.stop() }
        let url = "http://\(host):\(server.port)/a.jpg"
        let error = try #require(await Support.failure(url, policy: Support.defaultPolicy))
        #expect(error.code == .refused, "\(url): \(error)")
        #expect(!error.isTransient)
        #expect(server.connectionCount == 0, "\(url) reached the server")
    }

    @Test(
        "With the default policy, IPv6 loopback is refused and an IPv6 server sees no connection",
        arguments: [
            "[::1]", "[0:0:0:0:0:0:0:1]", "[::0001]", "localhost",
        ])
    func ipv6Loopback(host: String) async throws {
        let server = try TestHTTPServer(host: "::1") { _ in .ok([1, 2, 3]) }
        defer { server.stop() }
        let url = "http://\(host):\(server.port)/a.jpg"
        let error = try #require(await Support.failure(url, policy: Support.defaultPolicy))
        #expect(error.code == .refused, "\(url): \(error)")
        #expect(server.connectionCount == 0, "\(url) reached the server")
    }

    @Test("A refusal names the resolved address, its class, and how to allow it")
    func refusalMessage() async throws {
        let server = try TestHTTPServer { _ in .ok([1]) }
        defer { server.stop() }
        let error = try #require(await Support.failure("http://localhost:\(server.port)/a.jpg", policy: Support.defaultPolicy))
        #expect(error.code == .refused)
        #expect(error.message.contains("127.0.0.1 is a loopback address"), "\(error)")
        #expect(error.message.contains("--allow-source http://localhost:\(server.port)/"))
        #expect(error.message.contains("--allow-private-network"))
    }

    @Test("Allowing private networks lets loopback through")
    func allowPrivateNetworks() async throws {
        let server = try TestHTTPServer { _ in .ok([4, 5, 6]) }
        defer { server.stop() }
        var policy = Support.defaultPolicy
        policy.allowPrivateNetworks = true
        #expect(try await Support.fetch("http://localhost:\(server.port)/a.jpg", policy: policy).get().bytes == [4, 5, 6])
    }

    @Test(
        "Allow-list bypass attempts aimed at a real server are refused before any connection",
        arguments: [
            "http://127.0.0.1:PORT@127.0.0.2:PORT/a.jpg", "http://127.0.0.1:PORT.evil.test/a.jpg",
            "http://127.0.0.1:PORT/photos/../secret", "http://127.0.0.1:PORT/photos/%2e%2e/secret",
            "http://127.0.0.1:PORT/photos/..%2Fsecret", "http://127.0.0.1:PORT/photosX/a.jpg",
            "https://127.0.0.1:PORT/photos/a.jpg", "http://localhost:PORT/photos/a.jpg", "http://2130706433:OTHER/photos/a.jpg",
        ])
    func allowListBypass(template: String) async throws {
        let server = try TestHTTPServer { _ in .ok([1]) }
        defer { server.stop() }
        var policy = Support.defaultPolicy
        policy.allowedSourcePrefixes = [server.url("/photos/")]
        let url = template.replacing("PORT", with: "\(server.port)")
            .replacing("OTHER", with: "\(server.port == 65535 ? 1 : server.port + 1)")
        let error = try #require(await Support.failure(url, policy: policy))
        #expect(error.code == .refused || error.code == .invalid, "\(url): \(error)")
        #expect(server.connectionCount == 0, "\(url) reached the server")
    }

    @Test("The same server is reachable through every spelling the allow-list names, odd IPv4 forms included")
    func oddSpellingOfAllowedHost() async throws {
        let server = try TestHTTPServer { _ in .ok([8]) }
        defer { server.stop() }
        var policy = Support.defaultPolicy
        policy.allowedSourcePrefixes = [server.url("/photos/")]
        #expect(try await Support.fetch("http://2130706433:\(server.port)/photos/a.jpg", policy: policy).get().bytes == [8])
        #expect(try await Support.fetch("HTTP://127.1:\(server.port)/photos/x/../a.jpg", policy: policy).get().bytes == [8])
        #expect(server.requests.map(\.target) == ["/photos/a.jpg", "/photos/a.jpg"])
    }
}
