import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomHTTPAPI

@Suite("Job API over HTTP: submit, read, fetch the output, cancel (real Redis, real worker)", .serialized, .realTime)
struct JobAPIRealTimeTests {
    @Test("Given a submitted job, a worker processes it; GET shows it succeeded and its output comes with an ETag, then 304")
    func submitProcessFetch() async throws {
        try await APIHarness.with { api in
            let source = try api.image("cat.png")
            let out = api.directory + "/out/thumbs"
            let submitted = try await api.post(
                "/v1/jobs",
                #"{"source": "\#(source)", "chain": "downsample(40x40)", "format": "webp", "output": "\#(out)", "batch": "uploads", "metadata": {"upload": 8731, "user": {"id": "u-1", "tags": ["a", "b"]}}}"#
            )
            #expect(submitted.status == 201, "\(submitted.text)")
            let answer = try APIHarness.object(submitted)
            #expect(answer["batch"] as? String == "uploads")
            #expect(answer["added"] as? Int == 1)
            let id = try #require((answer["jobs"] as? [[String: Any]])?.first?["id"] as? String)

            let job = try await api.waitForJob(id)
            #expect(job["state"] as? String == "succeeded")
            #expect(job["chain"] as? String == "downsample(40x40)")
            #expect(job["hasOutput"] as? Bool == true)
            let metadata = try #require(job["metadata"] as? [String: Any])
            #expect(metadata["upload"] as? Int == 8731)
            #expect((metadata["user"] as? [String: Any])?["id"] as? String == "u-1")
            let result = try #require(job["result"] as? [String: Any])
            #expect(result["output"] as? String == out + "/cat.webp")

            let output = try await api.http.get("/v1/jobs/\(id)/output")
            #expect(output.status == 200)
            #expect(output.header("Content-Type") == "image/webp")
            #expect(output.body == [UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/cat.webp"))))
            let tag = try #require(output.header("ETag"))
            #expect(tag == "\"\(result["sha256"] as? String ?? "")\"")
            let again = try await api.http.get("/v1/jobs/\(id)/output", headers: [("If-None-Match", tag)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)

            let batch = try APIHarness.object(try await api.http.get("/v1/batches/uploads"))
            #expect(batch["total"] as? Int == 1 && batch["succeeded"] as? Int == 1 && batch["complete"] as? Bool == true)
            #expect(batch["seconds"] is Double && batch["enqueuedAt"] is String)

            // Other bytes under the name are not this job's result; no file at all is gone too.
            try Data("another job's bytes".utf8).write(to: URL(fileURLWithPath: out + "/cat.webp"))
            #expect(try await api.http.get("/v1/jobs/\(id)/output").status == 410)
            try FileManager.default.removeItem(atPath: out + "/cat.webp")
            #expect(try await api.http.get("/v1/jobs/\(id)/output").status == 410)
        }
    }

    @Test("A batch with a bad chain and an unknown key is refused with 422 and every error record; nothing is enqueued")
    func refusedBatchEnqueuesNothing() async throws {
        try await APIHarness.with(worker: false) { api in
            let body = #"""
                {"batch": "refused", "chain": "downsample(40x40)", "jobs": [
                  {"source": "https://example.com/a.jpg"},
                  {"source": "https://example.com/b.jpg", "chain": "resize(10x10)|>blurr(3)"},
                  {"source": "https://example.com/c.jpg", "colour": "red"}
                ]}
                """#
            let reply = try await api.post("/v1/batches", body)
            #expect(reply.status == 422, "\(reply.text)")
            let errors = try #require(try APIHarness.object(reply)["errors"] as? [[String: Any]])
            #expect(errors.count == 1)
            #expect(errors.first?["code"] as? String == "api.invalid-field")
            #expect(errors.first?["location"] as? String == "jobs:3")

            let chainOnly = body.replacingOccurrences(of: #", "colour": "red""#, with: "")
            let chainReply = try await api.post("/v1/batches", chainOnly)
            #expect(chainReply.status == 422)
            let chainErrors = try #require(try APIHarness.object(chainReply)["errors"] as? [[String: Any]])
            #expect(chainErrors.first?["code"] as? String == "chain.unknown-processor")
            #expect(chainErrors.first?["location"] as? String == "jobs:2")
            #expect(chainErrors.first?["column"] as? Int == 16)

            #expect(try await api.queue.batchProgress("refused") == nil)
            #expect(try await api.http.get("/v1/batches/refused").status == 404)
            let events = try await api.queue.readEvents(after: .start, limit: 10, wait: .zero)
            #expect(events.isEmpty)
        }
    }

    @Test("A body that is not JSON answers 400; an unknown job 404; cancelling a queued batch drops its jobs")
    func notJSONUnknownJobAndCancel() async throws {
        try await APIHarness.with(worker: false) { api in
            let bad = try await api.post("/v1/jobs", "{not json")
            #expect(bad.status == 400)
            #expect(try await api.post("/v1/jobs", "[]").status == 400)
            #expect(try await api.post("/v1/batches", " null").status == 400)
            #expect((try APIHarness.object(bad)["errors"] as? [[String: Any]])?.first?["code"] as? String == "api.invalid-json")
            #expect(try await api.http.get("/v1/jobs/no-such-job").status == 404)
            let nowhere = try await api.http.get("/v1/nowhere")
            #expect(nowhere.status == 404)
            #expect((try APIHarness.object(nowhere)["errors"] as? [[String: Any]])?.first?["code"] as? String == "api.not-found")
            let deep = try await api.post(
                "/v1/jobs", #"{"source": "https://example.com/a.jpg", "chain": "blur(1)", "metadata": {"a": {"b": {"c": {"d": {}}}}}}"#)
            #expect(deep.status == 422)
            #expect((try APIHarness.object(deep)["errors"] as? [[String: Any]])?.first?["code"] as? String == "api.invalid-field")

            let submitted = try await api.post(
                "/v1/batches",
                #"{"batch": "later", "chain": "downsample(40x40)", "delay": 3600, "jobs": [{"source": "https://example.com/a.jpg", "id": "a/1"}]}"#)
            #expect(submitted.status == 201, "\(submitted.text)")
            let cancelled = try await api.http.perform("DELETE", "/v1/batches/later")
            #expect(cancelled.status == 200)
            #expect(try APIHarness.object(cancelled)["cancelled"] as? Int == 1)
            let job = try APIHarness.object(try await api.http.get("/v1/jobs/a%2F1"))
            #expect(job["state"] as? String == "cancelled")
            #expect(try await api.http.perform("DELETE", "/v1/batches/never").status == 404)
        }
    }

    @Test("GET /v1/openapi.json serves it")
    func served() async throws {
        try await APIHarness.with(worker: false) { api in
            let reply = try await api.http.get("/v1/openapi.json")
            #expect(reply.status == 200)
            #expect(reply.text == OpenAPIDocument.json)
        }
    }
}
