import DarkroomCoordinator
import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomCoordinatorHTTP

/// The coordinator's HTTP server over real loopback sockets, with a real redis-server.
@Suite("Coordinator HTTP over a real socket", .realTime)
struct CoordinatorHTTPRealTimeTests {
    @Test("Given a token, then everything but /healthz answers 401 without it and 200 with the header or the cookie")
    func tokenIsEnforced() async throws {
        let harness = try await CoordinatorHTTPHarness()
        let http = harness.http
        do {
            for path in ["/status", "/metrics", "/events", "/"] {
                #expect(try await http.get(path).status == 401, "\(path) without a token")
                #expect(try await http.get(path, headers: [("Authorization", "Bearer wrong-token-0123456789")]).status == 401)
            }
            #expect(try await http.get("/healthz").status == 200)
            #expect(try await http.get("/status", headers: harness.bearer).status == 200)
            #expect(try await http.get("/?token=not-the-token-at-all").status == 401)

            let redirect = try await http.get("/?token=\(CoordinatorHTTPHarness.token)")
            #expect(redirect.status == 303)
            #expect(redirect.header("Location") == "/")
            let setCookie = try #require(redirect.header("Set-Cookie"))
            #expect(setCookie.contains("HttpOnly"))
            #expect(setCookie.contains("SameSite=Strict"))
            #expect(!setCookie.contains(CoordinatorHTTPHarness.token))
            let cookie = [("Cookie", String(setCookie.prefix { $0 != ";" }))]
            let status = try await http.get("/status", headers: cookie)
            #expect(status.status == 200)
            #expect(status.header("Content-Type") == "application/json")
            #expect(try JSONSerialization.jsonObject(with: Data(status.body)) is [String: Any])
            let page = try await http.get("/", headers: cookie)
            #expect(page.status == 200)
            #expect(page.text.contains("id=\"batches\""))
            let events = try await http.read("/events", headers: cookie, timeout: 5) { String(decoding: $0, as: UTF8.self).contains("retry:") }
            #expect(events.status == 200)
            #expect(events.header("Content-Type")?.hasPrefix("text/event-stream") == true)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    @Test("Given events in the stream, then /events resumes strictly after Last-Event-ID, then follows live events, filtered by batch")
    func eventsResume() async throws {
        let harness = try await CoordinatorHTTPHarness()
        do {
            try await harness.queue.publish((0..<5).map { JobEvent.workerOnline(worker: "w\($0)") })
            let stored = try await harness.queue.readEvents(after: .start, limit: 100, wait: .zero).map(\.cursor.rawValue)
            #expect(stored.count == 5)

            // Catch-up from Last-Event-ID, then two live events published while connected.
            let live = Task {
                try await Task.sleep(for: .milliseconds(700))
                try await harness.queue.publish([.workerOnline(worker: "live1"), .workerOnline(worker: "live2")])
            }
            let reply = try await harness.http.read("/events", headers: harness.bearer + [("Last-Event-ID", stored[1])], timeout: 10) {
                Self.frames($0).count >= 5
            }
            try await live.value
            let frames = Self.frames(reply.body)
            #expect(frames.map(\.id).prefix(3) == stored[2...4])
            #expect(frames.compactMap { $0.record["worker"] as? String } == ["w2", "w3", "w4", "live1", "live2"])
            #expect(frames.allSatisfy { ($0.record["streamId"] as? String) == $0.id })

            // ?lastEventId= for a first connect, and ?batch= keeps one batch's events.
            _ = try await harness.queue.enqueue([QueueTestKit.job("x1", batch: "x"), QueueTestKit.job("y1", batch: "y")])
            let all = try await harness.queue.readEvents(after: .start, limit: 100, wait: .zero)
            let filtered = try await harness.http.read("/events?batch=y&lastEventId=\(stored[4])", headers: harness.bearer, timeout: 10) {
                !Self.frames($0).isEmpty
            }
            let batches = Self.frames(filtered.body).map { $0.record["batch"] as? String }
            #expect(batches == ["y"])
            #expect(Self.frames(filtered.body).first?.id == all.first { $0.event.batch == "y" }?.cursor.rawValue)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    @Test("Given a Last-Event-ID that is not an id of this stream, then the stream says so and follows live events")
    func foreignLastEventID() async throws {
        let harness = try await CoordinatorHTTPHarness()
        let live = Task {
            try await Task.sleep(for: .milliseconds(700))
            try await harness.queue.publish([.workerOnline(worker: "after")])
        }
        let reply = try await harness.http.read("/events", headers: harness.bearer + [("Last-Event-ID", "not-a-stream-id")], timeout: 10) {
            !Self.frames($0).isEmpty
        }
        try? await live.value
        await harness.stop()
        #expect(reply.status == 200)
        #expect(reply.text.contains(": Last-Event-ID is not an id of this stream"))
        #expect(Self.frames(reply.body).map { $0.record["worker"] as? String } == ["after"])
    }

    @Test("Given a short heartbeat, then an idle /events stream gets comment lines")
    func heartbeat() async throws {
        let harness = try await CoordinatorHTTPHarness(heartbeat: .milliseconds(200))
        // A bound on the wait only (heartbeats come every 200 ms), generous for a loaded machine.
        let reply = try await harness.http.read("/events", headers: harness.bearer, timeout: 20) {
            String(decoding: $0, as: UTF8.self).contains(": heartbeat")
        }
        await harness.stop()
        #expect(reply.text.contains(": heartbeat\n\n"))
    }

    @Test("Given a non-loopback address without a token, then the server refuses to start unless insecure")
    func nonLoopbackWithoutToken() throws {
        #expect(throws: CoordinatorHTTPError.self) { try CoordinatorHTTPConfiguration(host: "0.0.0.0", port: 9464).validate() }
        #expect(throws: CoordinatorHTTPError.self) { try CoordinatorHTTPConfiguration(host: "192.0.2.10", port: 9464).validate() }
        try CoordinatorHTTPConfiguration(host: "0.0.0.0", port: 9464, allowInsecure: true).validate()
        try CoordinatorHTTPConfiguration(host: "0.0.0.0", port: 9464, token: AccessToken("0123456789abcdef0123")).validate()
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] {
            try CoordinatorHTTPConfiguration(host: host, port: 9464).validate()
        }
        #expect(throws: CoordinatorHTTPError.self) { try AccessToken("short") }
        #expect(try CoordinatorHTTPConfiguration.address("[::1]:80") == ("::1", 80))
        #expect(throws: CoordinatorHTTPError.self) { try CoordinatorHTTPConfiguration.address("127.0.0.1") }
    }

    /// The `id:` and parsed `data:` of each complete frame.
    static func frames(_ body: [UInt8]) -> [(id: String, record: [String: Any])] {
        String(decoding: body, as: UTF8.self).components(separatedBy: "\n\n").compactMap { frame in
            var id: String?
            var data: String?
            for line in frame.split(separator: "\n") {
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            }
            guard let id, let data, let record = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else { return nil }
            return (id, record)
        }
    }
}
