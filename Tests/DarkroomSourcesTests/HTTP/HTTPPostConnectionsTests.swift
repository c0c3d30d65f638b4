import DarkroomTestSupport
import Testing

@testable import DarkroomSources

/// `HTTPPost` on kept connections: a receiver that counts connections sees one for many POSTs,
/// and the connect-time address check still decides every connection.
@Suite("HTTP POST: kept connections")
struct HTTPPostConnectionsTests {
    static func policy(allowPrivate: Bool) -> SourcePolicy {
        var policy = SourcePolicy()
        policy.allowPrivateNetworks = allowPrivate
        policy.connectTimeout = 5
        policy.totalTimeout = 10
        policy.maxBytes = 64 << 10
        policy.maxRedirects = 0
        return policy
    }

    /// A receiver that keeps an idle connection far longer than a test runs: on a loaded machine
    /// seconds may pass between two POSTs, and the test server's default 3 s idle drop would
    /// then close the kept connection and count a second one.
    static func receiver() throws -> TestHTTPServer {
        try TestHTTPServer(idleTimeout: .seconds(60)) { _ in .status(200) }
    }

    static func post(_ server: TestHTTPServer, times: Int, allowPrivate: Bool = true, connections: HTTPPostConnections?) async -> [HTTPPost.Outcome] {
        var outcomes: [HTTPPost.Outcome] = []
        for _ in 0..<times {
            outcomes.append(
                await HTTPPost.send(
                    server.url("/hook"), body: [], headers: ["Content-Type: application/json"], policy: policy(allowPrivate: allowPrivate),
                    connections: connections))
        }
        return outcomes
    }

    @Test("Three POSTs through a pool use one connection; the handle is kept idle after each")
    func reused() async throws {
        let server = try Self.receiver()
        defer { server.stop() }
        let connections = HTTPPostConnections()
        let outcomes = await Self.post(server, times: 3, connections: connections)
        #expect(outcomes.allSatisfy { $0.accepted }, "\(outcomes)")
        #expect(server.requestCount("/hook") == 3)
        #expect(server.connectionCount == 1)
        #expect(connections.idleCount == 1)
        connections.closeAll()
        #expect(connections.idleCount == 0)
    }

    @Test(
        "Without a pool, or with a maximum idle age the connection has passed, each POST opens its own connection",
        arguments: [false, true])
    func newConnections(pooledButAged: Bool) async throws {
        let server = try Self.receiver()
        defer { server.stop() }
        let connections = pooledButAged ? HTTPPostConnections(maxIdleAge: .zero) : nil
        let outcomes = await Self.post(server, times: 3, connections: connections)
        #expect(outcomes.allSatisfy { $0.accepted })
        #expect(server.connectionCount == 3)
    }

    @Test("A connection kept under one address rule is never used under a stricter one: refused at connect time")
    func keptPerPolicy() async throws {
        let server = try Self.receiver()
        defer { server.stop() }
        let connections = HTTPPostConnections()
        #expect(await Self.post(server, times: 1, connections: connections).allSatisfy { $0.accepted })
        let refused = await Self.post(server, times: 1, allowPrivate: false, connections: connections)
        #expect(refused.first?.status == 0)
        #expect(refused.first?.problem?.contains("refused at connect time") == true, "\(refused)")
        #expect(server.requestCount("/hook") == 1)
        #expect(server.connectionCount == 1)
    }

    @Test("The idle handles are bounded per origin and in all")
    func bounded() async throws {
        let servers = try (0..<3).map { _ in try Self.receiver() }
        defer { for server in servers { server.stop() } }
        let connections = HTTPPostConnections(maxIdlePerOrigin: 1, maxIdle: 2)
        for server in servers { _ = await Self.post(server, times: 2, connections: connections) }
        #expect(connections.idleCount == 2)
        #expect(servers.map(\.connectionCount) == [1, 1, 1])
    }
}
