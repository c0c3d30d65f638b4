import DarkroomHTTPAPI
import DarkroomTestSupport
import Testing

/// The request deadlines and the open-connection limit of `darkroom api`, with real sockets that
/// trickle bytes against a real server.
@Suite("The job API's header and body deadlines and its connection limit", .realTime, .serialized)
struct RequestDeadlineRealTimeTests {
    /// A deadline of 1 s for heads and bodies.
    private static func short(_ configuration: inout APIConfiguration) {
        configuration.headTimeout = .seconds(1)
        configuration.bodyTimeout = .seconds(1)
    }

    private static func twoConnections(_ configuration: inout APIConfiguration) { configuration.maxConnections = 2 }

    /// Sends `first`, then one byte every 200 ms until the server answers and closes (at most
    /// 8 s); returns the answer and how long it took.
    private func trickle(_ socket: RawHTTPSocket, first: String) async throws -> (text: String, closed: Bool, elapsed: Duration) {
        let start = ContinuousClock.now
        socket.send(first)
        var text = ""
        while ContinuousClock.now - start < .seconds(8) {
            socket.send("x")
            let (more, closed) = try await socket.receive(for: 0.2)
            text += more
            if closed { return (text, true, ContinuousClock.now - start) }
        }
        return (text, false, ContinuousClock.now - start)
    }

    @Test("Headers sent a byte at a time get 408 api.request-timeout at the header deadline, then the connection closes")
    func slowHeaders() async throws {
        try await APIHarness.with(worker: false, configure: Self.short) { api in
            let socket = try RawHTTPSocket(port: api.port)
            let (text, closed, elapsed) = try await trickle(socket, first: "GET /v1/openapi.json HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            #expect(closed)
            #expect(text.hasPrefix("HTTP/1.1 408"))
            #expect(text.contains(#""code":"api.request-timeout""#) && text.contains("headers"))
            #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(5))
        }
    }

    @Test("A body sent a byte at a time gets 408 api.request-timeout at the body deadline, then the connection closes")
    func slowBody() async throws {
        try await APIHarness.with(worker: false, configure: Self.short) { api in
            let socket = try RawHTTPSocket(port: api.port)
            let head =
                "POST /v1/jobs HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(api.token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"
            let (text, closed, elapsed) = try await trickle(socket, first: head)
            #expect(closed)
            #expect(text.hasPrefix("HTTP/1.1 408"))
            #expect(text.contains(#""code":"api.request-timeout""#) && text.contains("body"))
            #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(5))
            // Nothing was submitted.
            #expect(try await api.queue.readEvents(after: .start, limit: 10, wait: .zero).isEmpty)
        }
    }

    @Test("A connection that sends nothing is closed at the header deadline without an answer")
    func silentConnection() async throws {
        try await APIHarness.with(worker: false, configure: Self.short) { api in
            let socket = try RawHTTPSocket(port: api.port)
            let (text, closed) = try await socket.receive(for: 4)
            #expect(closed && text.isEmpty)
        }
    }

    @Test("A keep-alive connection idle between requests for longer than the header deadline still serves the next one")
    func keepAliveBetweenRequests() async throws {
        try await APIHarness.with(worker: false, configure: Self.short) { api in
            let socket = try RawHTTPSocket(port: api.port)
            let request = "GET /v1/jobs/none HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(api.token)\r\n\r\n"
            socket.send(request)
            let first = try await socket.receive(for: 2)
            #expect(first.text.hasPrefix("HTTP/1.1 404") && !first.closed)
            // Idle past the header deadline (the idle timeout, 30 s, governs between requests).
            let idle = try await socket.receive(for: 1.5)
            #expect(idle.text.isEmpty && !idle.closed)
            socket.send(request)
            let second = try await socket.receive(for: 2)
            #expect(second.text.hasPrefix("HTTP/1.1 404"))
        }
    }

    @Test("Past the open-connection limit a new connection waits until one closes")
    func connectionLimit() async throws {
        try await APIHarness.with(worker: false, configure: Self.twoConnections) { api in
            let held = [try RawHTTPSocket(port: api.port), try RawHTTPSocket(port: api.port)]
            try await Task.sleep(for: .milliseconds(300))
            let third = try RawHTTPSocket(port: api.port)
            third.send("GET /v1/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let waiting = try await third.receive(for: 1.5)
            #expect(waiting.text.isEmpty && !waiting.closed)
            held[0].shut()
            let served = try await third.receive(for: 3)
            #expect(served.text.hasPrefix("HTTP/1.1 200"))
            held[1].shut()
        }
    }
}
