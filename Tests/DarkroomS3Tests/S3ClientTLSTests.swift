import DarkroomS3
import DarkroomTestSupport
import Glibc
import Testing

/// TLS against a real server with a throwaway CA, and cancellation mid-transfer.
@Suite("S3 client: TLS and cancellation", .realTime)
struct S3ClientTLSTests {
    @Test("TLS is verified: the endpoint's CA file is trusted, and without it the certificate is refused")
    func tls() async throws {
        let server = try TestTLSServer(files: [:])
        defer { server.stop() }
        let directory = server.documentRoot + "/b"
        mkdir(directory, 0o755)
        let fd = open(directory + "/k", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = write(fd, "object", 6)
        close(fd)
        let trusted = S3Endpoint(alias: "tls", url: server.origin, caFile: server.caCertificatePath)
        let client = S3Client(endpoint: trusted, pool: S3ClientFaultTests.pool)
        // `openssl s_server -WWW` sends no ETag: reaching that answer proves the handshake passed.
        let reached = await S3ClientFaultTests.failure { () async throws(S3Error) in
            _ = try await client.getObject(bucket: "b", key: "k", maxBytes: 1000)
        }
        #expect(reached?.kind == .badResponse)
        let untrusted = S3Client(endpoint: S3Endpoint(alias: "tls", url: server.origin), pool: S3ClientFaultTests.pool)
        let refused = await S3ClientFaultTests.failure { () async throws(S3Error) in
            _ = try await untrusted.getObject(bucket: "b", key: "k", maxBytes: 1000)
        }
        #expect(refused?.kind == .connection)
    }

    @Test("Cancelling the calling task aborts the transfer")
    func cancellation() async throws {
        let server = try TestHTTPServer { _ in
            TestHTTPResponse(
                status: 200, headers: [("ETag", "\"e\"")],
                body: .drip(Array(repeating: 0x41, count: 1 << 20), bytesPerStep: 2048, interval: .milliseconds(100), announceLength: true))
        }
        defer { server.stop() }
        let client = S3ClientFaultTests.client(server)
        let start = ContinuousClock.now
        let task = Task { () async throws(S3Error) -> S3Object in
            try await client.getObject(bucket: "b", key: "k", maxBytes: 2 << 20)
        }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let result = await task.result
        #expect(ContinuousClock.now - start < .seconds(5))
        guard case .failure(let failure) = result, let error = failure as? S3Error else {
            Issue.record("the transfer finished despite the cancellation")
            return
        }
        #expect(error.kind == .connection && error.message.contains("cancelled"))
    }
}
