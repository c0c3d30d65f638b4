import DarkroomSystem
import Foundation
import Testing

@Suite("Stage timings")
struct StageTimingsTests {
    @Test("Given a stage timed in pieces, when added up, then it starts at 0 and the total counts only stages that ran")
    func addingUp() {
        var timings = StageTimings(fetch: 2)
        timings.add(1.5, to: \.decode)
        timings.add(0.5, to: \.decode)
        #expect(timings.decode == 2)
        #expect(timings.process == nil)
        #expect(timings.total == 4)
    }

    @Test("Given stages that did not run, when encoded, then they are absent and the rest are rounded to microseconds")
    func encoding() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(StageTimings(fetch: 1.23456789, store: .nan))
        #expect(String(decoding: json, as: UTF8.self) == #"{"fetch":1.235}"#)
    }

    @Test("Given the record spelling, then every cache outcome reads back as itself")
    func cacheOutcomeSpelling() throws {
        #expect(CacheOutcome.allCases.map(\.rawValue) == ["memory", "disk", "miss"])
    }
}
