import DarkroomQueue
import Foundation
import Testing

/// The terminal event docs/queue.md shows is a record this build writes: the fast reader takes
/// it, the writer gives back the same bytes, and `JSONEncoder` agrees. A key renamed, moved or
/// added in the code without the page (or the other way round) fails here.
@Suite("The documented event record")
struct DocumentedEventRecordTests {
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
}
