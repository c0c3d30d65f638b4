import DarkroomQueue
import Foundation
import Testing

@Suite("Capabilities a job requires")
struct CapabilitiesTests {
    private static func job(requires: [String]?) -> Job {
        Job(batch: "b", source: "a.jpg", chain: "resize(10x10)", requires: requires)
    }

    @Test("Given a requirement list, then only a sorted, duplicate-free list of 1–16 valid names is a valid record")
    func validation() {
        #expect(Self.job(requires: nil).problem == nil)
        #expect(Self.job(requires: ["output-name", "processor:sharpen"]).problem == nil)
        #expect(Self.job(requires: []).problem?.contains("absent rather than empty") == true)
        #expect(Self.job(requires: ["b", "a"]).problem?.contains("sorted") == true)
        #expect(Self.job(requires: ["a", "a"]).problem?.contains("duplicates") == true)
        #expect(Self.job(requires: ["has space"]).problem?.contains("'has space'") == true)
        #expect(Self.job(requires: ["a,b"]).problem != nil)
        #expect(Self.job(requires: [String(repeating: "x", count: 65)]).problem != nil)
        #expect(Self.job(requires: (0..<17).map { "c\($0 + 10)" }).problem?.contains("at most 16") == true)
    }

    @Test("Given names in any order with repeats, then the canonical list is sorted and unique, and nil when empty")
    func canonicalForm() {
        #expect(Capabilities.canonical(["z", "a", "z"]) == ["a", "z"])
        #expect(Capabilities.canonical([String]()) == nil)
    }

    @Test("Given offered capabilities, then a job is satisfied only when every requirement is offered")
    func satisfaction() {
        #expect(Capabilities.satisfies([], nil))
        #expect(Capabilities.satisfies(["a", "b"], ["a"]))
        #expect(!Capabilities.satisfies(["a"], ["a", "b"]))
    }

    @Test("Given a record with requires, then it reads back equal, and a record without the key reads as requiring nothing")
    func recordRoundTrip() throws {
        let job = Self.job(requires: ["output-name", "processor:sharpen"])
        let text = String(decoding: try job.jsonData(), as: UTF8.self)
        #expect(text.contains(#""requires":["output-name","processor:sharpen"]"#))
        #expect(Job.decode(try job.jsonData()) == .job(job))
        let plain = String(decoding: try Self.job(requires: nil).jsonData(), as: UTF8.self)
        #expect(!plain.contains("requires"))
    }

    @Test("Given a record whose requires is not canonical, then it is garbage, not a job to run")
    func badRecordIsGarbage() throws {
        var text = String(decoding: try Self.job(requires: ["a", "b"]).jsonData(), as: UTF8.self)
        text = text.replacingOccurrences(of: #"["a","b"]"#, with: #"["b","a"]"#)
        guard case .garbage(let reason) = Job.decode(Data(text.utf8)) else {
            Issue.record("expected garbage")
            return
        }
        #expect(reason.contains("sorted"))
    }
}
