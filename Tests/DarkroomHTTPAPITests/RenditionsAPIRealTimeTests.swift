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
}
