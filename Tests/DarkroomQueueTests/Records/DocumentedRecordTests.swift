import DarkroomQueue
import Foundation
import Testing

/// The records docs/queue.md shows are records this build writes: each event reads back (on the
/// fast path where it takes the record) and the writers give back the same bytes, and `JSONEncoder`
/// agrees; so does each job record. A key renamed, moved or added in the code without the page
/// (or the other way round) fails here.
@Suite("The documented records")
struct DocumentedRecordTests {
    /// The package root: three levels above this file's folder (Tests/DarkroomQueueTests/Records).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every line of a ```json block in `page` that holds one record.
    static func jsonExamples(in page: String) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        var examples: [String] = []
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock = line == "```json"
                continue
            }
            if inBlock, line.hasPrefix("{"), line.hasSuffix("}") { examples.append(String(line)) }
        }
        return examples
    }

    @Test("The succeeded event in docs/queue.md reads on the fast path and is written back byte for byte")
    func succeededExample() throws {
        let examples = try Self.jsonExamples(in: "docs/queue.md").filter { $0.contains(#""type":"succeeded""#) }
        let example = try #require(examples.first, "docs/queue.md shows no succeeded event")
        let bytes = Array(example.utf8)
        let event = try #require(bytes.withUnsafeBytes { EventJSONReader.read($0) }, "the fast reader declines the documented record")
        #expect(event.source != nil && event.chain != nil && event.result?.sha256 != nil)
        #expect(EventJSONWriter.bytes(event) == bytes)
        #expect(try [UInt8](event.jsonData()) == bytes)
    }

    @Test("Every event record in docs/queue.md decodes, and JSONEncoder and the hand writer give back its bytes")
    func everyEventExample() throws {
        let examples = try Self.jsonExamples(in: "docs/queue.md").filter { $0.contains(#""type":""#) }
        #expect(examples.count >= 2)
        #expect(examples.contains { $0.contains(#""willRetry":true"#) })
        for example in examples {
            let bytes = Array(example.utf8)
            let event = try RecordJSON.decoder().decode(JobEvent.self, from: Data(bytes))
            #expect(try [UInt8](event.jsonData()) == bytes, "\(example)")
            #expect(EventJSONWriter.bytes(event) == bytes, "\(example)")
            if let fast = bytes.withUnsafeBytes({ EventJSONReader.read($0) }) { #expect(fast == event) }
        }
    }

    @Test("Every job record in docs/queue.md is a valid job, and JSONEncoder and the hand writer give back its bytes")
    func everyJobExample() throws {
        let examples = try Self.jsonExamples(in: "docs/queue.md").filter { $0.contains(#""enqueuedAt":""#) }
        let example = try #require(examples.first, "docs/queue.md shows no job record")
        let bytes = Array(example.utf8)
        guard case .job(let job) = Job.decode(Data(bytes)) else {
            Issue.record("the documented job record is not a job: \(Job.decode(Data(bytes)))")
            return
        }
        #expect(job.requires == Capabilities.canonical(Capabilities.features(name: job.name)))
        #expect(try [UInt8](job.jsonData()) == bytes)
        #expect(JobJSONWriter.bytes(job) == bytes)
    }
}
