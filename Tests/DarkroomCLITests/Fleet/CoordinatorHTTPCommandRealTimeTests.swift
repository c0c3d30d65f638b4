import DarkroomTestSupport
import Foundation
import Glibc
import Testing

/// `darkroom coordinator --http` as a real process: the bind guard, the token from a file, and a
/// token that never reaches standard output (not a terminal here) or the logs, and a graceful
/// shutdown with a client following `/events`.
@Suite("darkroom coordinator --http, end to end", .realTime)
struct CoordinatorHTTPCommandRealTimeTests {
    @Test("Given a non-loopback --http without a token, then the coordinator exits 2 naming the token's sources")
    func nonLoopbackWithoutToken() async throws {
        let fleet = try FleetKit()
        let run = try await fleet.run(["coordinator", "--event-log", fleet.path("logs/events.jsonl"), "--http", "0.0.0.0:0"], timeout: .seconds(30))
        #expect(run.status == 2)
        #expect(run.error.contains("DARKROOM_HTTP_TOKEN") && run.error.contains("--insecure-http"), "\(run.error)")
    }

    @Test("Given a --session-ttl out of range, or --output-root without --http, then the coordinator exits 2 saying why")
    func dashboardFlags() async throws {
        let fleet = try FleetKit()
        let ttl = try await fleet.run(["coordinator", "--http", "127.0.0.1:0", "--session-ttl", "5"], timeout: .seconds(30))
        #expect(ttl.status == 2)
        #expect(ttl.error.contains("--session-ttl must be 60…2592000"), "\(ttl.error)")
        let root = try await fleet.run(["coordinator", "--output-root", fleet.path("out")], timeout: .seconds(30))
        #expect(root.status == 2)
        #expect(root.error.contains("need --http"), "\(root.error)")
    }

    @Test("Given a port another process listens on, then the coordinator exits 1 saying it cannot listen there")
    func portInUse() async throws {
        let fleet = try FleetKit()
        let (listener, port) = try TestHTTPServer.openListener(on: "127.0.0.1")
        defer { close(listener) }
        let run = try await fleet.run(
            ["coordinator", "--event-log", fleet.path("logs/events.jsonl"), "--http", "127.0.0.1:\(port)"], timeout: .seconds(30))
        #expect(run.status == 1)
        #expect(run.error.contains("cannot listen on 127.0.0.1:\(port)"), "\(run.error)")
    }

    @Test("Given --http-token-file, then /healthz is open, /status needs the token, and the token is printed nowhere")
    func tokenFromFile() async throws {
        let fleet = try FleetKit()
        let token = "cli-token-\(UUID().uuidString)"
        try Data((token + "\n").utf8).write(to: URL(fileURLWithPath: fleet.path("logs/token")))
        let (listener, port) = try TestHTTPServer.openListener(on: "127.0.0.1")
        close(listener)
        let coordinator = try fleet.start(
            ["coordinator", "--event-log", fleet.path("logs/events.jsonl"), "--http", "127.0.0.1:\(port)", "--http-token-file", fleet.path("logs/token")],
            label: "coordinator")
        let http = HTTPTestClient(port: port)
        var health: HTTPTestClient.Reply?
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let reply = try? await http.get("/healthz", timeout: 2), reply.status == 200 {
                health = reply
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(health?.text.contains(#""healthy":true"#) == true, "\(coordinator.error)")
        #expect(try await http.get("/status").status == 401)
        #expect(try await http.get("/status", headers: [("Authorization", "Bearer \(token)")]).status == 200)
        // An open /events stream must not hold up a graceful shutdown.
        let follower = Task {
            try await http.read("/events", headers: [("Authorization", "Bearer \(token)")], timeout: 60) { _ in false }
        }
        try await Task.sleep(for: .milliseconds(500))
        let stopping = ContinuousClock.now
        coordinator.kill(SIGTERM)
        #expect(await coordinator.waitForExit(timeout: .seconds(30)) == 0)
        let followed = try await follower.value
        #expect(ContinuousClock.now - stopping < .seconds(20), "the /events stream ended with the coordinator")
        #expect(followed.text.hasPrefix("retry: 1000"))
        #expect(!coordinator.output.contains(token) && !coordinator.error.contains(token))
        #expect(coordinator.error.contains("HTTP listening"))
    }
}
