import DarkroomQueue
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomHTTPAPI

@Suite("placeholders over HTTP: the job view's result carries them; a bad list is refused", .serialized, .realTime)
struct PlaceholdersAPIRealTimeTests {
    @Test("Given a job asking for a BlurHash and a colour, its view's result has exactly those; an unknown kind is refused with 422")
    func placeholdersAreSubmittedAndReturned() async throws {
        try await APIHarness.with { api in
            let source = try api.image("cat.png")
            let submitted = try await api.post(
                "/v1/jobs", #"{"source": "\#(source)", "chain": "downsample(40x40)", "format": "png", "placeholders": ["color", "blurhash"]}"#)
            #expect(submitted.status == 201, "\(submitted.text)")
            let id = try #require((try APIHarness.object(submitted)["jobs"] as? [[String: Any]])?.first?["id"] as? String)
            let job = try await api.waitForJob(id)
            #expect(job["state"] as? String == "succeeded", "\(job)")
            let placeholders = try #require((job["result"] as? [String: Any])?["placeholders"] as? [String: String], "\(job)")
            #expect(Set(placeholders.keys) == ["blurhash", "color"])
            #expect(placeholders["color"]?.hasPrefix("#") == true && placeholders["blurhash"]?.count == 28)

            let refused = try await api.post(
                "/v1/batches", #"{"batch": "bad", "placeholders": ["phash"], "chain": "blur(1)", "jobs": [{"source": "https://example.com/a.jpg"}]}"#)
            #expect(refused.status == 422, "\(refused.text)")
            #expect(refused.text.contains("'placeholders' has 'phash'"))
            let unknown = try await api.post("/v1/jobs", #"{"source": "https://example.com/a.jpg", "chain": "blur(1)", "placeholders": "color"}"#)
            #expect(unknown.status == 422, "\(unknown.text)")
        }
    }
}
