import Foundation
import Testing

@Suite("darkroom run: a signed source's credentials stay out of the records")
struct RunRedactionTests {
    @Test("A refused signed URL: the --json record's error is redacted, and standard error names the source once")
    func refusedSignedURL() async throws {
        let dir = try WorkerCLITestKit.makeDirectory("run")
        defer { WorkerCLITestKit.remove(dir) }
        let source = "http://127.0.0.1:9/a.jpg?X-Amz-Signature=SIGSECRET;token=TOKENSECRET"

        let run = try await WorkerCLITestKit.run(["run", source, "-p", "downsample(30x30)", "--out", "out", "--json"], in: dir)
        #expect(run.status == 1)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let error = try #require(record["error"] as? [String: Any])
        let message = try #require(error["message"] as? String)
        #expect(error["code"] as? String == "source.refused")
        #expect(message.hasPrefix("http://127.0.0.1:9/a.jpg?X-Amz-Signature=***;token=***: "), "\(message)")
        #expect(!message.contains("SECRET"))
        // The progress line prints the event's message as it is: the source is not put in front again.
        let line = try #require(run.error.split(separator: "\n").first { $0.contains("[source.refused]") })
        #expect(line.hasPrefix("darkroom: http://127.0.0.1:9/a.jpg?X-Amz-Signature=***;token=***: "), "\(line)")
    }
}
