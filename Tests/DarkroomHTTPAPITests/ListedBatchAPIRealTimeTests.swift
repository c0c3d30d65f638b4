import DarkroomQueue
import DarkroomS3
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomHTTPAPI

@Suite("POST /v1/batches with s3:// prefixes and globs, listed page by page from moto", .serialized, .realTime)
struct ListedBatchAPIRealTimeTests {
    /// moto with bucket `photos`: `in/1.jpg`…`in/N.jpg`, `in/notes.txt` and `other/x.jpg`; the
    /// API allows `photos` (not `secret`), lists `pageSize` keys a page and expands a request to
    /// `maxListedJobs` jobs at most.
    static func with(
        objects: Int = 5, pageSize: Int = 2, maxListedJobs: Int = 10_000, _ body: (APIHarness, MotoS3Server) async throws -> Void
    ) async throws {
        let moto = try await MotoS3Server()
        try await moto.createBucket("photos")
        try await moto.createBucket("secret")
        let endpoint = moto.endpoint(alias: S3Endpoint.defaultAlias)
        let client = S3Client(endpoint: endpoint, pool: BlockingWorkPool(threadCount: 2))
        for key in (1...objects).map({ "in/\($0).jpg" }) + ["in/notes.txt", "other/x.jpg"] {
            _ = try await client.putObject(bucket: "photos", key: key, bytes: Array(key.utf8), contentType: nil, cacheControl: nil)
        }
        let allowed = S3Configuration(endpoints: [endpoint], allowedBuckets: [S3Bucket(endpoint: S3Endpoint.defaultAlias, name: "photos")])
        func configure(_ configuration: inout APIConfiguration) {
            configuration.s3 = allowed
            configuration.s3ListPageSize = pageSize
            configuration.maxListedJobs = maxListedJobs
        }
        try await APIHarness.with(worker: false, configure: configure) { api in try await body(api, moto) }
    }

    static func codes(_ reply: HTTPTestClient.Reply) throws -> [String] {
        (try APIHarness.object(reply)["errors"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    @Test("A glob becomes one job per matching object, pinned to its listed ETag, page by page into one batch; the answer counts them")
    func glob() async throws {
        try await Self.with { api, _ in
            let (_, token) = try await api.key("lister", sources: ["s3://photos/in/", "https:"])
            let reply = try await api.http(token: token).post(
                "/v1/batches",
                #"{"batch": "listed", "chain": "blur(1)", "jobs": [{"source": "s3://photos/in/*.jpg"}, {"source": "https://example.com/a.jpg"}]}"#)
            #expect(reply.status == 201, "\(reply.text)")
            let answer = try APIHarness.object(reply)
            #expect(answer["batch"] as? String == "listed")
            #expect(answer["count"] as? Int == 6, "5 listed + 1 written out")
            #expect(answer["added"] as? Int == 6)
            #expect((answer["jobs"] as? [[String: Any]])?.compactMap { $0["source"] as? String } == ["https://example.com/a.jpg"])
            let pattern = try #require((answer["patterns"] as? [[String: Any]])?.first)
            #expect(pattern["pattern"] as? String == "s3://photos/in/*.jpg")
            #expect(pattern["matched"] as? Int == 5 && pattern["listed"] as? Int == 6 && pattern["pages"] as? Int == 3, "\(pattern)")
            #expect(try await api.queue.batchProgress("listed")?.total == 6)

            let page = try APIHarness.object(try await api.http(token: token).get("/v1/batches/listed/jobs?limit=10"))
            #expect((page["jobs"] as? [[String: Any]])?.count == 6)
            let reserved = try await api.queue.reserve(consumer: "t", max: 10, wait: .zero, offering: ["s3:default@photos", "source:s3"]).map(\.job)
            let listed = reserved.filter { $0.source.hasPrefix("s3://") }
            #expect(listed.count == 5)
            #expect(listed.allSatisfy { $0.source.hasPrefix("s3://photos;etag=") }, "\(listed.map(\.source))")
            #expect(listed.allSatisfy { $0.requires == ["s3:default@photos", "source:s3"] }, "\(listed.map(\.requires))")
        }
    }

    @Test("A bucket the API does not allow is refused naming it; a single job, or a line with an id, may not be a pattern; nothing is enqueued")
    func refusals() async throws {
        try await Self.with { api, _ in
            let http = api.http(token: try await api.key("bucket", sources: ["s3://photos/", "s3://secret/"]).token)
            let notAllowed = try await http.post("/v1/batches", #"{"chain": "blur(1)", "batch": "no", "jobs": [{"source": "s3://secret/in/"}]}"#)
            #expect(notAllowed.status == 422)
            #expect(try Self.codes(notAllowed) == ["source.refused"])
            #expect(notAllowed.text.contains("secret") && notAllowed.text.contains("jobs:1"), "\(notAllowed.text)")
            let single = try await http.post("/v1/jobs", #"{"batch": "no", "source": "s3://photos/in/*.jpg"}"#)
            #expect(single.status == 422 && single.text.contains("POST /v1/batches"), "\(single.text)")
            let none = try await http.post("/v1/batches", #"{"chain": "blur(1)", "batch": "no", "jobs": [{"source": "s3://photos/nothing/*.jpg"}]}"#)
            #expect(none.status == 422 && none.text.contains("no object matches"), "\(none.text)")
            let oneID = try await http.post("/v1/batches", #"{"chain": "blur(1)", "batch": "no", "jobs": [{"id": "x", "source": "s3://photos/in/*.jpg"}]}"#)
            #expect(oneID.status == 422 && oneID.text.contains("idFromSource") && oneID.text.contains("jobs:1"), "\(oneID.text)")
            #expect(try await api.queue.batchProgress("no") == nil)
        }
    }

    @Test("A pattern whose literal directory the key's grants do not cover is refused before it is listed, even when its matches would be covered")
    func grants() async throws {
        try await Self.with { api, _ in
            let (_, token) = try await api.key("narrow", sources: ["s3://photos/in/"])
            let http = api.http(token: token)
            for pattern in ["s3://photos/i*/1.jpg", "s3://photos/", "s3://photos/in*", "s3://photos/**/1.jpg"] {
                let reply = try await http.post("/v1/batches", #"{"chain": "blur(1)", "batch": "g", "jobs": [{"source": "\#(pattern)"}]}"#)
                #expect(reply.status == 403, "\(pattern): \(reply.text)")
                #expect(try Self.codes(reply) == ["apikey.source-not-granted"], "\(pattern)")
            }
            #expect(try await api.queue.batchProgress("g") == nil)
            let inside = try await http.post("/v1/batches", #"{"chain": "blur(1)", "batch": "g", "jobs": [{"source": "s3://photos/in/**"}]}"#)
            #expect(inside.status == 201, "\(inside.text)")
            #expect(try APIHarness.object(inside)["count"] as? Int == 6, "in/ holds 5 JPEGs and notes.txt")
        }
    }

    @Test("Past the most jobs one request may list, the listing stops: the pages before stay enqueued and the answer says how many")
    func limit() async throws {
        try await Self.with(objects: 5, pageSize: 2, maxListedJobs: 3) { api, _ in
            let http = api.http(token: try await api.key("bucket", sources: ["s3://photos/"]).token)
            let reply = try await http.post(
                "/v1/batches", #"{"chain": "blur(1)", "batch": "big", "idFromSource": true, "jobs": [{"source": "s3://photos/in/"}]}"#)
            #expect(reply.status == 422, "\(reply.text)")
            #expect(try Self.codes(reply) == ["api.too-many-jobs", "api.partly-enqueued"])
            #expect(reply.text.contains("2 jobs were enqueued into batch 'big'"), "\(reply.text)")
            #expect(try await api.queue.batchProgress("big")?.total == 2)
        }
    }

    @Test("A client that goes away mid-listing stops it: no page is enqueued after the connection closes")
    func clientGoesAway() async throws {
        try await Self.with(objects: 40, pageSize: 1) { api, _ in
            let token = try await api.key("bucket", sources: ["s3://photos/"]).token
            let body = #"{"chain": "blur(1)", "batch": "gone", "jobs": [{"source": "s3://photos/in/"}]}"#
            let socket = try RawHTTPSocket(port: api.port)
            socket.send(
                "POST /v1/batches HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            )
            try await Task.sleep(for: .milliseconds(150))
            socket.shut()
            // Settled: the count stops moving once the listing has noticed.
            var last = -1
            var total = try await api.queue.batchProgress("gone")?.total ?? 0
            while total != last {
                last = total
                try await Task.sleep(for: .milliseconds(500))
                total = try await api.queue.batchProgress("gone")?.total ?? 0
            }
            #expect(total < 41, "41 objects under in/; the listing stopped at \(total)")
            let after = try await api.http(token: token).post(
                "/v1/batches", #"{"chain": "blur(1)", "batch": "after", "jobs": [{"source": "s3://photos/other/"}]}"#)
            #expect(after.status == 201, "the API still answers: \(after.text)")
        }
    }
}
