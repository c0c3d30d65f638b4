import DarkroomClient
import DarkroomQueue
import Foundation
import Testing

@Suite("Enqueue: keep lists from flags and lines")
struct EnqueueKeepTests {
    static let defaults = EnqueueDefaults(chain: "resize(40x40)", format: "png", output: "/out", batch: "b1", workingDirectory: "/shared")

    static func prepare(_ requests: [JobRequest], _ defaults: EnqueueDefaults) async throws -> [Job] {
        var waiting = defaults
        waiting.allowUnoffered = true
        return try await FleetClient(queue: MemoryQueue()).prepare(requests, defaults: waiting).jobs
    }

    @Test("Given --keep, every job keeps it and requires keep; a line's own keep wins; without either, nothing is kept")
    func keepFromFlagAndLine() async throws {
        var defaults = Self.defaults
        defaults.keep = ["exif", "icc"]
        var own = JobRequest(source: "b.jpg")
        own.keep = ["xmp"]
        let jobs = try await Self.prepare([JobRequest(source: "a.jpg"), own], defaults)
        #expect(jobs.map(\.keep) == [["exif", "icc"], ["xmp"]])
        #expect(jobs.allSatisfy { $0.requires == ["keep"] })
        let plain = try await Self.prepare([JobRequest(source: "a.jpg")], Self.defaults)
        #expect(plain.first?.keep == nil && plain.first?.requires == nil)
    }

    @Test("A job line's keep is read as a list, canonicalised, and refused when wrong")
    func keepInJobLines() throws {
        let lines = Data(#"{"source": "a.jpg", "keep": ["xmp", "icc", "xmp"]}"#.utf8)
        let requests = try SourceList.parse(lines, name: "jobs.txt").get()
        #expect(requests.first?.keep == ["icc", "xmp"])
        for bad in [#"{"source": "a.jpg", "keep": ["gps"]}"#, #"{"source": "a.jpg", "keep": "icc"}"#, #"{"source": "a.jpg", "keep": ["iptc"]}"#] {
            #expect(throws: SourceListErrors.self) { _ = try SourceList.parse(Data(bad.utf8), name: "jobs.txt").get() }
        }
    }

    @Test("--id-from-source ids are unchanged without keep, and differ with it")
    func derivedIDs() {
        let plain = DerivedIDs.jobID(source: "a.jpg", chain: "c", format: nil, quality: nil, firstFrameOnly: false, output: nil, name: nil)
        #expect(DerivedIDs.jobID(source: "a.jpg", chain: "c", format: nil, quality: nil, firstFrameOnly: false, output: nil, name: nil, keep: nil) == plain)
        #expect(DerivedIDs.jobID(source: "a.jpg", chain: "c", format: nil, quality: nil, firstFrameOnly: false, output: nil, name: nil, keep: ["icc"]) != plain)
    }
}
