import DarkroomClient
import DarkroomQueue
import Foundation
import Testing

@Suite("Enqueue: placeholder lists from flags and lines")
struct EnqueuePlaceholdersTests {
    @Test("Given --placeholders, every job asks for them and requires placeholders; a line's own list wins; without either, none")
    func fromFlagAndLine() async throws {
        var defaults = EnqueueKeepTests.defaults
        defaults.placeholders = ["blurhash", "color"]
        var own = JobRequest(source: "b.jpg")
        own.placeholders = ["thumbhash"]
        let jobs = try await EnqueueKeepTests.prepare([JobRequest(source: "a.jpg"), own], defaults)
        #expect(jobs.map(\.placeholders) == [["blurhash", "color"], ["thumbhash"]])
        #expect(jobs.allSatisfy { $0.requires == ["placeholders"] })
        let plain = try await EnqueueKeepTests.prepare([JobRequest(source: "a.jpg")], EnqueueKeepTests.defaults)
        #expect(plain.first?.placeholders == nil && plain.first?.requires == nil)
    }

    @Test("A job line's placeholders are read as a list, canonicalised, and refused when wrong")
    func inJobLines() throws {
        let lines = Data(#"{"source": "a.jpg", "placeholders": ["thumbhash", "blurhash", "thumbhash"]}"#.utf8)
        let requests = try SourceList.parse(lines, name: "jobs.txt").get()
        #expect(requests.first?.placeholders == ["blurhash", "thumbhash"])
        for bad in [#"{"source": "a.jpg", "placeholders": ["phash"]}"#, #"{"source": "a.jpg", "placeholders": "color"}"#] {
            #expect(throws: SourceListErrors.self) { _ = try SourceList.parse(Data(bad.utf8), name: "jobs.txt").get() }
        }
    }

    @Test("--id-from-source ids are unchanged without placeholders, and differ with them")
    func derivedIDs() {
        let plain = DerivedIDs.jobID(source: "a.jpg", chain: "c", format: nil, quality: nil, firstFrameOnly: false, output: nil, name: nil)
        #expect(
            DerivedIDs.jobID(
                source: "a.jpg", chain: "c", format: nil, quality: nil, firstFrameOnly: false, output: nil, name: nil, placeholders: ["color"])
                != plain)
    }
}
