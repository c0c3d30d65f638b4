import DarkroomTestSupport
import Testing

@testable import DarkroomSources

@Suite("HTTP provider: body size, timeouts and cancellation")
struct HTTPProviderLimitsTests {
    typealias Support = HTTPTestSupport

    static func policy(allowing server: TestHTTPServer, maxBytes: Int) -> SourcePolicy {
        var policy = Support.policy(allowing: server)
        policy.maxBytes = maxBytes
        return policy
    }

    @Test("A body of exactly the limit is accepted; one byte more is too large")
    func boundary() async throws {
        let server = try TestHTTPServer { request in .ok(Support.bytes(request.path == "/exact" ? 1000 : 1001)) }
        defer { server.stop() }
        let policy = Self.policy(allowing: server, maxBytes: 1000)
        #expect(try await Support.fetch(server.url("/exact"), policy: policy).get().bytes.count == 1000)
        let error = try #require(await Support.failure(server.url("/over"), policy: policy))
        #expect(error.code == .tooLarge)
    }

    @Test(
        "Bodies over the limit are refused, whether announced, chunked or just streamed until close",
        arguments: [
            "announced", "chunked", "untilClose",
        ])
    func overLimit(framing: String) async throws {
        let body = Support.bytes(50_000)
        let server = try TestHTTPServer { _ in
            switch framing {
            case "announced": return TestHTTPResponse(status: 200, body: .fixed(body))
            case "chunked": return TestHTTPResponse(status: 200, body: .chunked(body, chunkSize: 4096))
            default: return TestHTTPResponse(status: 200, body: .untilClose(body))
            }
        }
        defer { server.stop() }
        let error = try #require(await Support.failure(server.url("/big.jpg"), policy: Self.policy(allowing: server, maxBytes: 10_000)))
        #expect(error.code == .tooLarge)
        #expect(!error.isTransient)
        #expect(error.message.contains("over the 9.7 KB source limit (raise it with --max-source-mb)"), "\(error)")
        if framing == "announced" {
            #expect(error.message.contains("is 48.8 KB"), "the announced size is named: \(error)")
        }
    }

    @Test("A server streaming without end is cut off once the limit is passed")
    func endlessStream() async throws {
        let limit = 64 << 20
        let server = try TestHTTPServer { _ in
            TestHTTPResponse(status: 200, body: .endless(chunk: Support.bytes(16 << 10), limit: limit))
        }
        defer { server.stop() }
        let error = try #require(await Support.failure(server.url("/endless"), policy: Self.policy(allowing: server, maxBytes: 100_000)))
        #expect(error.code == .tooLarge)
        #expect(await server.wait { $0.clientHangUps == 1 }, "the server noticed the client hung up")
        #expect(server.bodyBytesSent < limit)
    }

    @Test("The limit applies to the decompressed body: a small gzip bomb is too large")
    func gzipBomb() async throws {
        let server = try TestHTTPServer { _ in
            TestHTTPResponse(status: 200, headers: [("Content-Encoding", "gzip")], body: .fixed(Support.gzipBomb))
        }
        defer { server.stop() }
        let error = try #require(await Support.failure(server.url("/bomb"), policy: Self.policy(allowing: server, maxBytes: 10_000)))
        #expect(error.code == .tooLarge)
    }

    @Test("A slow drip below the low-speed limit times out, as a transient error")
    func lowSpeed() async throws {
        let server = try TestHTTPServer { _ in
            TestHTTPResponse(
                status: 200,
                body: .drip(
                    Support.bytes(200), bytesPerStep: 1, interval: .milliseconds(200),
                    announceLength: true))
        }
        defer { server.stop() }
        var policy = Support.policy(allowing: server)
        policy.lowSpeedBytesPerSecond = 100
        policy.lowSpeedSeconds = 1
        policy.totalTimeout = 20
        let error = try #require(await Support.failure(server.url("/slow"), policy: policy))
        #expect(error.code == .timeout)
        #expect(error.isTransient)
        #expect(error.message.contains("less than 100 bytes/s for 1 s"), "\(error)")
    }

    @Test("A transfer fast enough for the low-speed check still ends at the total timeout")
    func totalTimeout() async throws {
        let server = try TestHTTPServer { _ in
            TestHTTPResponse(
                status: 200,
                body: .drip(
                    Support.bytes(2000), bytesPerStep: 20, interval: .milliseconds(50),
                    announceLength: false))
        }
        defer { server.stop() }
        var policy = Support.policy(allowing: server)
        policy.lowSpeedBytesPerSecond = 1
        policy.lowSpeedSeconds = 1
        policy.totalTimeout = 1
        let error = try #require(await Support.failure(server.url("/long"), policy: policy))
        #expect(error.code == .timeout)
        #expect(error.message.contains("longer than the 1 s limit"), "\(error)")
    }

    @Test("Cancelling the fetching task aborts the transfer")
    func cancellation() async throws {
        let server = try TestHTTPServer { _ in
            TestHTTPResponse(
                status: 200,
                body: .drip(
                    Support.bytes(100), bytesPerStep: 1, interval: .milliseconds(100),
                    announceLength: true))
        }
        defer { server.stop() }
        var policy = Support.policy(allowing: server)
        policy.lowSpeedBytesPerSecond = 0
        policy.totalTimeout = 30
        let url = server.url("/slow")
        let task = Task { await Support.fetch(url, policy: policy) }
        // Generous waits: on a loaded 2-core machine the parallel pass can hold the request back
        // for seconds; the test is about cancellation, not speed.
        #expect(await server.wait(upTo: .seconds(60)) { $0.requestCount("/slow") == 1 })
        task.cancel()
        guard case .failure(let error) = await task.value else {
            Issue.record("the cancelled fetch completed")
            return
        }
        #expect(error.message.contains("cancelled"), "\(error)")
        #expect(await server.wait(upTo: .seconds(60)) { $0.clientHangUps == 1 })
    }
}
