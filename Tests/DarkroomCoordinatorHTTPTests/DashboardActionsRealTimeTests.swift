import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomCoordinatorHTTP

/// The dashboard's drill-down and actions over a real socket: the job API's routes the
/// coordinator mounts under `/v1`, the session cookie's expiry, and the `Origin` rule for
/// state-changing requests.
@Suite("Dashboard drill-down, actions and session", .realTime)
struct DashboardActionsRealTimeTests {
    /// The session cookie `/?token=…` sets, as a `Cookie` header.
    static func login(_ harness: CoordinatorHTTPHarness) async throws -> (String, String) {
        let redirect = try await harness.http.get("/?token=\(CoordinatorHTTPHarness.token)")
        let setCookie = try #require(redirect.header("Set-Cookie"))
        #expect(setCookie.contains("Max-Age=43200"), "a 12 h session by default: \(setCookie)")
        return ("Cookie", String(setCookie.prefix { $0 != ";" }))
    }

    static func errorCode(_ reply: HTTPTestClient.Reply) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any]
        return ((object?["errors"] as? [[String: Any]])?.first)?["code"] as? String
    }

    @Test("Given the session cookie, then a POST or DELETE needs this server's Origin; a bearer request needs none; a GET needs none")
    func originRule() async throws {
        let harness = try await CoordinatorHTTPHarness()
        do {
            let http = harness.http
            let cookie = try await Self.login(harness)
            let own = ("Origin", "http://127.0.0.1:\(harness.port)")
            let missing = try await http.perform("POST", "/v1/dead-letters/retry", headers: [cookie], body: Array("{}".utf8))
            #expect(missing.status == 403)
            #expect(Self.errorCode(missing) == "http.cross-site-request")
            let foreign = try await http.perform(
                "POST", "/v1/dead-letters/retry", headers: [cookie, ("Origin", "http://evil.example")], body: Array("{}".utf8))
            #expect(foreign.status == 403)
            #expect(Self.errorCode(foreign) == "http.cross-site-request")
            let otherPort = try await http.perform("DELETE", "/v1/dead-letters", headers: [cookie, ("Origin", "http://127.0.0.1:1")])
            #expect(otherPort.status == 403, "same host, another port: another origin")
            let right = try await http.perform("POST", "/v1/dead-letters/retry", headers: [cookie, own], body: Array("{}".utf8))
            #expect(right.status == 200, "\(right.text)")
            #expect(right.text.contains("\"retried\""))
            let bearer = try await http.perform("POST", "/v1/dead-letters/retry", headers: harness.bearer, body: Array("{}".utf8))
            #expect(bearer.status == 200, "a bearer request needs no Origin: \(bearer.text)")
            #expect(try await http.get("/v1/dead-letters", headers: [cookie]).status == 200, "reading needs no Origin")
            #expect(try await http.perform("DELETE", "/v1/batches/nope", headers: [cookie]).status == 403)
            #expect(try await http.perform("DELETE", "/v1/batches/nope", headers: [cookie, own]).status == 404)
            #expect(try await http.perform("POST", "/v1/dead-letters/retry", body: Array("{}".utf8)).status == 401, "no credential at all")
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    @Test("Given no token (loopback), then a POST still needs this server's Origin")
    func originRuleWithoutToken() async throws {
        let harness = try await CoordinatorHTTPHarness(token: nil)
        do {
            let http = harness.http
            #expect(try await http.perform("DELETE", "/v1/dead-letters").status == 403)
            #expect(try await http.perform("DELETE", "/v1/dead-letters", headers: [("Origin", "http://127.0.0.1:\(harness.port)")]).status == 200)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    @Test("Given an expired or forged session cookie, then every endpoint answers 401 and says to log in again")
    func expiredSession() async throws {
        let harness = try await CoordinatorHTTPHarness()
        do {
            let session = DashboardSession(token: try AccessToken(CoordinatorHTTPHarness.token), lifetime: DashboardSession.defaultLifetime)
            let now = Int64(Date().timeIntervalSince1970)
            let expired = ("Cookie", "\(DashboardSession.cookieName)=\(session.cookieValue(now: now - 13 * 3600))")
            for path in ["/", "/status", "/v1/dead-letters"] {
                let reply = try await harness.http.get(path, headers: [expired])
                #expect(reply.status == 401, "\(path)")
                #expect(reply.text.contains("expired; log in again"), "\(path): \(reply.text)")
            }
            let forged = ("Cookie", "\(DashboardSession.cookieName)=v1.\(now + 3600).\(String(repeating: "0", count: 64))")
            #expect(try await harness.http.get("/status", headers: [forged]).status == 401)
            let fresh = ("Cookie", "\(DashboardSession.cookieName)=\(session.cookieValue(now: now))")
            #expect(try await harness.http.get("/status", headers: [fresh]).status == 200)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    @Test("Given a succeeded job with an output under --output-root, then the page's routes read the job and serve its output")
    func drillDownToOutput() async throws {
        let harness = try await CoordinatorHTTPHarness(outputRoot: "work")
        do {
            let http = harness.http
            let cookie = try await Self.login(harness)
            let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]
            let output = harness.directory + "/out.png"
            #expect(FileManager.default.createFile(atPath: output, contents: Data(bytes)))
            _ = try await harness.queue.enqueue([QueueTestKit.job("shown", batch: "drill"), QueueTestKit.job("outside", batch: "drill")])
            _ = try await QueueTestKit.finish(harness.queue) { job in
                .succeeded(QueueTestKit.result(output: job.id.rawValue == "shown" ? output : "/elsewhere/out.png"))
            }
            let job = try await http.get("/v1/jobs/shown", headers: [cookie])
            #expect(job.status == 200, "\(job.text)")
            let view = try #require(try JSONSerialization.jsonObject(with: Data(job.body)) as? [String: Any])
            #expect(view["state"] as? String == "succeeded")
            #expect(view["hasOutput"] as? Bool == true)
            let preview = try await http.get("/v1/jobs/shown/output", headers: [cookie])
            #expect(preview.status == 200)
            #expect(preview.header("Content-Type") == "image/png")
            #expect(preview.body == bytes)
            let refused = try await http.get("/v1/jobs/outside/output", headers: [cookie])
            #expect(refused.status == 404)
            #expect(Self.errorCode(refused) == "api.output-refused")
            let batch = try await http.get("/v1/batches/drill", headers: [cookie])
            #expect(batch.status == 200 && batch.text.contains("\"succeeded\":2"), "\(batch.text)")
            // The drill-down's list: the batch's jobs in the order they entered it.
            let jobs = try await http.get("/v1/batches/drill/jobs?limit=10", headers: [cookie])
            #expect(jobs.status == 200, "\(jobs.text)")
            let listed = (try JSONSerialization.jsonObject(with: Data(jobs.body)) as? [String: Any])?["jobs"] as? [[String: Any]]
            #expect(listed?.compactMap { $0["id"] as? String } == ["shown", "outside"])
            #expect(try await http.get("/v1/batches/drill/jobs?state=nope", headers: [cookie]).status == 422)
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }
}
