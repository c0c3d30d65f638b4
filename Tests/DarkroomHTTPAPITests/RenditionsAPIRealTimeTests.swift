import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomHTTPAPI

@Suite("Job API over HTTP: a job with renditions (real Redis, real worker)", .serialized, .realTime)
struct RenditionsAPIRealTimeTests {
    @Test("Given a job with renditions, the worker writes each and the job view lists every rendition's output")
    func submitRenditions() async throws {
        try await APIHarness.with { api in
            let source = try api.image("cat.png")
            let out = api.directory + "/out/sizes"
            let submitted = try await api.post(
                "/v1/jobs",
                #"{"source": "\#(source)", "output": "\#(out)", "format": "webp", "renditions": [{"name": "big", "chain": "downsample(40x40)"}, {"name": "small", "chain": "downsample(10x10)", "format": "png"}]}"#
            )
            #expect(submitted.status == 201, "\(submitted.text)")
            let id = try #require((try APIHarness.object(submitted)["jobs"] as? [[String: Any]])?.first?["id"] as? String)

            let job = try await api.waitForJob(id)
            #expect(job["state"] as? String == "succeeded", "\(job)")
            #expect(job["chain"] as? String == Job.renditionsChain)
            let result = try #require(job["result"] as? [String: Any])
            let renditions = try #require(result["renditions"] as? [[String: Any]])
            #expect(renditions.map { $0["name"] as? String } == ["big", "small"])
            #expect(renditions.map { $0["output"] as? String } == [out + "/cat-big.webp", out + "/cat-small.png"])
            #expect(FileManager.default.fileExists(atPath: out + "/cat-small.png"))
        }
    }

    @Test("A batch's renditions go to every job that gives neither its own chain nor renditions; not beside a batch chain")
    func batchRenditions() async throws {
        try await APIHarness.with { api in
            let cat = try api.image("cat.png")
            let dog = try api.image("dog.png")
            let out = api.directory + "/out/batch"
            let body =
                #"{"output": "\#(out)", "renditions": [{"name": "big", "chain": "downsample(40x40)"}, {"name": "small", "chain": "downsample(10x10)"}], "jobs": [{"source": "\#(cat)"}, {"source": "\#(dog)", "chain": "downsample(20x20)"}]}"#
            let submitted = try await api.post("/v1/batches", body)
            #expect(submitted.status == 201, "\(submitted.text)")
            let ids = try #require((try APIHarness.object(submitted)["jobs"] as? [[String: Any]])?.compactMap { $0["id"] as? String })
            #expect(ids.count == 2)
            let made = try await api.waitForJob(ids[0])
            #expect(made["chain"] as? String == Job.renditionsChain, "\(made)")
            let renditions = try #require((made["result"] as? [String: Any])?["renditions"] as? [[String: Any]])
            #expect(renditions.map { $0["name"] as? String } == ["big", "small"])
            // The line with its own chain makes that one output.
            let single = try await api.waitForJob(ids[1])
            #expect(single["chain"] as? String == "downsample(20x20)", "\(single)")
            #expect((single["result"] as? [String: Any])?["renditions"] == nil)

            let both = try await api.post(
                "/v1/batches", #"{"chain": "blur(1)", "renditions": [{"name": "a", "chain": ""}], "jobs": [{"source": "\#(cat)"}]}"#)
            #expect(both.status == 422, "\(both.text)")
            #expect(both.text.contains("not both"))
        }
    }
}
