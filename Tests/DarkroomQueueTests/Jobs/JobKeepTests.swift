import DarkroomQueue
import Foundation
import Testing

@Suite("A job record's keep list")
struct JobKeepTests {
    static func job(keep: [String]?) -> Job {
        Job(
            id: JobID(rawValue: "k")!, batch: "b", source: "a.jpg", chain: "blur(1)", enqueuedAt: Timestamp(millisecondsSince1970: 1_000),
            keep: keep)
    }

    @Test("Given a canonical keep list, it is valid, round-trips, and the hand writer agrees with JSONEncoder")
    func roundTrip() throws {
        let job = Self.job(keep: ["exif", "gps", "icc"])
        #expect(job.problem == nil)
        let data = try job.jsonData()
        #expect(String(decoding: data, as: UTF8.self).contains(#""id":"k","keep":["exif","gps","icc"],"#))
        #expect(JobJSONWriter.bytes(job) == [UInt8](data))
        guard case .job(let back) = Job.decode(data) else {
            Issue.record("did not decode")
            return
        }
        #expect(back == job)
        #expect(JobJSONWriter.bytes(Self.job(keep: nil)) == [UInt8](try Self.job(keep: nil).jsonData()))
        #expect(!String(decoding: try Self.job(keep: nil).jsonData(), as: UTF8.self).contains("keep"))
    }

    @Test("Unknown items, an empty or unsorted list, duplicates and gps alone are refused")
    func refusals() throws {
        #expect(Self.job(keep: ["iptc"]).problem?.contains("'keep' has 'iptc'") == true)
        #expect(Self.job(keep: []).problem != nil)
        #expect(Self.job(keep: ["icc", "exif"]).problem != nil)
        #expect(Self.job(keep: ["icc", "icc"]).problem != nil)
        #expect(Self.job(keep: ["gps", "icc"]).problem?.contains("gps") == true)
        #expect(throws: JobKeep.Problem.self) { try JobKeep.checked(["gps"]) }
        #expect(try JobKeep.checked(["xmp", "icc", "xmp"]) == ["icc", "xmp"])
    }

    @Test("A job with keep requires the keep capability, which this build's workers honour")
    func capability() {
        #expect(Capabilities.features(name: nil, keep: ["icc"]) == [Capabilities.keep])
        #expect(Capabilities.features(name: nil).isEmpty)
        #expect(Capabilities.honouredFeatures.contains("keep"))
    }
}
