import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomHTTPAPI

@Suite("keep over HTTP: a job that keeps metadata runs on a worker that honours it; a bad list is refused", .serialized, .realTime)
struct KeepAPIRealTimeTests {
    @Test("Given a job keeping icc and exif, it is accepted and succeeds; a batch keeping gps alone is refused with 422")
    func keepIsSubmittedAndChecked() async throws {
        try await APIHarness.with { api in
            let source = try api.image("cat.png")
            let submitted = try await api.post(
                "/v1/jobs", #"{"source": "\#(source)", "chain": "downsample(40x40)", "format": "png", "keep": ["icc", "exif"]}"#)
            #expect(submitted.status == 201, "\(submitted.text)")
            let id = try #require((try APIHarness.object(submitted)["jobs"] as? [[String: Any]])?.first?["id"] as? String)
            let job = try await api.waitForJob(id)
            #expect(job["state"] as? String == "succeeded", "\(job)")

            let refused = try await api.post(
                "/v1/batches", #"{"batch": "no-gps", "keep": ["gps"], "chain": "blur(1)", "jobs": [{"source": "https://example.com/a.jpg"}]}"#)
            #expect(refused.status == 422, "\(refused.text)")
            #expect(refused.text.contains("gps without exif or xmp"))
            let unknown = try await api.post("/v1/jobs", #"{"source": "https://example.com/a.jpg", "chain": "blur(1)", "keep": ["iptc"]}"#)
            #expect(unknown.status == 422, "\(unknown.text)")
            #expect(unknown.text.contains("'keep' has 'iptc'"))
        }
    }
}
