import DarkroomTestSupport

@testable import DarkroomSources

/// Shared pieces of the HTTP provider tests.
enum HTTPTestSupport {
    /// One provider for every test: its pool is the process's network pool, as in production.
    /// Sized for the parallel pass, where several tests hold slow (dripping) transfers at once: a
    /// fetch queued behind them would miss its test's wait. Threads start on demand, so the size
    /// costs nothing when the tests run one by one.
    static let provider = HTTPProvider(networkThreads: 64)

    /// A policy that names `server` in the allow-list (so its loopback address is allowed), with
    /// short timeouts so a test that goes wrong fails fast.
    static func policy(allowing servers: TestHTTPServer...) -> SourcePolicy {
        var policy = SourcePolicy()
        policy.allowedSourcePrefixes = servers.map { $0.origin + "/" }
        policy.connectTimeout = 2
        policy.totalTimeout = 8
        return policy
    }

    /// The strict default policy, with short timeouts.
    static var defaultPolicy: SourcePolicy {
        var policy = SourcePolicy()
        policy.connectTimeout = 2
        policy.totalTimeout = 8
        return policy
    }

    /// Fetches `url` and returns the result either way.
    static func fetch(_ url: String, policy: SourcePolicy) async -> Result<FetchedSource, SourceError> {
        do {
            return .success(try await provider.fetch(SourceReference(url), policy: policy))
        } catch {
            return .failure(error)
        }
    }

    /// Fetches `url`, expecting a failure, and returns it (a success is recorded as a test issue
    /// by the caller's `#require`).
    static func failure(_ url: String, policy: SourcePolicy) async -> SourceError? {
        if case .failure(let error) = await fetch(url, policy: policy) { return error }
        return nil
    }

    /// `count` bytes of a repeating, recognisable pattern.
    static func bytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }

    /// A port nothing listens on (a listener was opened there and closed).
    static func closedPort() throws -> Int {
        let server = try TestHTTPServer { _ in .status(500) }
        let port = server.port
        server.stop()
        return port
    }

    // MARK: gzip fixtures, made with Python's gzip module (mtime=0)

    /// What `gzipBody` decompresses to: `"Darkroom gzip payload 0123456789\n"` 40 times.
    static let gzipPayload: [UInt8] = Array(String(repeating: "Darkroom gzip payload 0123456789\n", count: 40).utf8)

    /// `gzip.compress(gzipPayload, mtime=0)`: 65 bytes.
    static let gzipBody: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x73, 0x49, 0x2c, 0xca, 0x2e, 0xca,
        0xcf, 0xcf, 0x55, 0x48, 0xaf, 0xca, 0x2c, 0x50, 0x28, 0x48, 0xac, 0xcc, 0xc9, 0x4f, 0x4c, 0x51,
        0x30, 0x30, 0x34, 0x32, 0x36, 0x31, 0x35, 0x33, 0xb7, 0xb0, 0xe4, 0x72, 0x19, 0x55, 0x30, 0xaa,
        0x60, 0x54, 0xc1, 0xa8, 0x82, 0x91, 0xad, 0x00, 0x00, 0x17, 0xbc, 0xaa, 0xad, 0x28, 0x05, 0x00, 0x00,
    ]

    /// `gzip.compress(b"\0" * 200_000, mtime=0, compresslevel=9)`: 229 bytes that inflate to
    /// 200 000 (a small decompression bomb).
    static let gzipBomb: [UInt8] =
        [
            0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xed, 0xc1, 0x31, 0x01, 0x00, 0x00,
            0x00, 0xc2, 0xa0, 0xf5, 0x4f, 0x6d, 0x06, 0x7f, 0xa0,
        ] + [UInt8](repeating: 0, count: 193) + [0x80, 0xd7, 0x00, 0x7b, 0x58, 0xe0, 0x5c, 0x40, 0x0d, 0x03, 0x00]
}
