import DarkroomTestSupport
import Testing

@testable import DarkroomSources

/// https against a real TLS server (`openssl s_server`) whose certificate a throwaway CA signs.
@Suite("HTTP provider: https with a private CA, verification on")
struct HTTPSProviderTests {
    typealias Support = HTTPTestSupport

    /// A policy allowing `server`'s origin, with short timeouts, trusting `caFile` when given.
    static func policy(allowing server: TestTLSServer, caFile: String?) -> SourcePolicy {
        var policy = SourcePolicy()
        policy.allowedSourcePrefixes = [server.origin + "/"]
        policy.connectTimeout = 2
        policy.totalTimeout = 8
        policy.caCertificatesPath = caFile
        return policy
    }

    @Test("Given the server's CA in caCertificatesPath, when an https URL is fetched, then the bytes arrive intact")
    func fetchesWithTrustedCA() async throws {
        let image = Support.bytes(40_000, seed: 11)
        let server = try TestTLSServer(files: ["cat.png": image])
        defer { server.stop() }
        let policy = Self.policy(allowing: server, caFile: server.caCertificatePath)
        let source = try await Support.fetch(server.url("/cat.png"), policy: policy).get()
        #expect(source.bytes == image)
        #expect(source.finalLocation == server.url("/cat.png"))
    }

    @Test("Given no extra CA, when the same https URL is fetched, then certificate verification refuses it")
    func refusesUntrustedCertificate() async throws {
        let server = try TestTLSServer(files: ["cat.png": Support.bytes(1000)])
        defer { server.stop() }
        let error = try #require(await Support.failure(server.url("/cat.png"), policy: Self.policy(allowing: server, caFile: nil)))
        #expect(error.code == .connection)
        #expect(error.message.contains("TLS handshake"))
        #expect(error.message.lowercased().contains("certificate"))
    }

    @Test("Given a CA file that does not exist, when an https URL is fetched, then it fails as a TLS problem, not a success")
    func missingCAFileFails() async throws {
        let server = try TestTLSServer(files: ["cat.png": Support.bytes(1000)])
        defer { server.stop() }
        let policy = Self.policy(allowing: server, caFile: server.documentRoot + "/no-such-ca.pem")
        let error = try #require(await Support.failure(server.url("/cat.png"), policy: policy))
        #expect(error.code == .connection)
    }
}
