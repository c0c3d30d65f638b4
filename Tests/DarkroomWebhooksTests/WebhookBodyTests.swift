import Foundation
import Testing

@testable import DarkroomWebhooks

@Suite("A delivery's body")
struct WebhookBodyTests {
    @Test("The event record is kept byte for byte, and the job's metadata is an object beside it")
    func metadataAsObject() throws {
        let record = Array(#"{"id":"e1","job":"j1","metadata":"{\"upload\":8731}","type":"succeeded"}"#.utf8)
        let body = WebhookBody.json(delivery: "e1", type: "job.succeeded", record: record, metadata: #"{"upload":8731}"#)
        #expect(body.contains(#","event":{"id":"e1","job":"j1","metadata":"{\"upload\":8731}","type":"succeeded"},"#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["upload"] as? Int == 8731)
        #expect(object["type"] as? String == "job.succeeded")

        let without = WebhookBody.json(delivery: "e2", type: "job.failed", record: Array(#"{"id":"e2"}"#.utf8))
        #expect(without == #"{"delivery":"e2","event":{"id":"e2"},"type":"job.failed"}"#)
    }
}
