import DarkroomQueue
import DarkroomSystem
import Foundation
import Testing

@Suite("A job record's placeholders list, and placeholders in results")
struct JobPlaceholdersTests {
    static func job(placeholders: [String]?) -> Job {
        Job(
            id: JobID(rawValue: "p")!, batch: "b", source: "a.jpg", chain: "blur(1)", enqueuedAt: Timestamp(millisecondsSince1970: 1_000),
            placeholders: placeholders)
    }

    @Test("Given a canonical list, it is valid, round-trips, and the hand writer agrees with JSONEncoder")
    func roundTrip() throws {
        let job = Self.job(placeholders: ["blurhash", "color", "thumbhash"])
        #expect(job.problem == nil)
        let data = try job.jsonData()
        #expect(String(decoding: data, as: UTF8.self).contains(#""placeholders":["blurhash","color","thumbhash"],"priority""#))
        #expect(JobJSONWriter.bytes(job) == [UInt8](data))
        #expect(Job.decode(data) == .job(job))
        #expect(!String(decoding: try Self.job(placeholders: nil).jsonData(), as: UTF8.self).contains("placeholders"))
    }

    @Test("Unknown kinds, an empty or unsorted list and duplicates are refused; the flag's text is canonicalised")
    func refusals() throws {
        #expect(Self.job(placeholders: ["phash"]).problem?.contains("'placeholders' has 'phash'") == true)
        #expect(Self.job(placeholders: []).problem != nil)
        #expect(Self.job(placeholders: ["thumbhash", "blurhash"]).problem != nil)
        #expect(Self.job(placeholders: ["color", "color"]).problem != nil)
        #expect(try JobPlaceholders.parse(commaSeparated: "thumbhash, blurhash,thumbhash") == ["blurhash", "thumbhash"])
        #expect(throws: JobPlaceholders.Problem.self) { try JobPlaceholders.parse(commaSeparated: "blurhash,,color") }
        #expect(throws: JobPlaceholders.Problem.self) { try JobPlaceholders.checked(["dominant"]) }
        #expect(JobPlaceholders.set(["color", "thumbhash"]) == [.color, .thumbhash])
    }

    @Test("A job with placeholders requires the placeholders capability, which this build's workers honour")
    func capability() {
        #expect(Capabilities.features(name: nil, placeholders: ["color"]) == [Capabilities.placeholders])
        #expect(Capabilities.features(name: nil).isEmpty)
        #expect(Capabilities.honouredFeatures.contains("placeholders"))
        #expect(!Capabilities.satisfies(Capabilities.honouredFeatures.subtracting(["placeholders"]), ["placeholders"]))
    }

    @Test("A succeeded event with placeholders: the hand-written record is JSONEncoder's, and the fast reader reads it")
    func events() throws {
        let placeholders = Placeholders(blurhash: "LxH27z2owuX4mDWUjrf6gGfhfRfi", thumbhash: "3gYGfA5gw4iIiHh4iHh2cJf2iA==", color: "#fa0a0a")
        let single = JobResult(
            output: "/out/cat.webp", format: "webp", width: 400, height: 300, bytes: 1234, cache: .miss, sha256: "ab",
            ms: StageTimings(fetch: 1, decode: 2), placeholders: placeholders)
        let partial = JobResult(
            output: nil, format: "png", width: 4, height: 3, bytes: 12, cache: .disk, placeholders: Placeholders(color: "#000000"))
        let renditions = JobResult(
            renditions: [
                RenditionResult(
                    name: "large", output: "/out/l.webp", format: "webp", width: 400, height: 300, bytes: 1234, cache: .miss, sha256: "ab",
                    placeholders: placeholders),
                RenditionResult(name: "small", output: nil, format: "png", width: 40, height: 30, bytes: 99, cache: .disk),
            ], ms: StageTimings(fetch: 1))
        for (index, result) in [single, partial, renditions].enumerated() {
            let event = JobEvent.succeeded(job: JobID(rawValue: "j1")!, batch: "b", worker: "w", attempt: 1, result: result, id: "e\(index)")
            let data = try event.jsonData()
            #expect(EventJSONWriter.bytes(event) == [UInt8](data), "\(String(decoding: data, as: UTF8.self))")
            #expect(JobEvent.decode(data) == .event(event))
            #expect([UInt8](data).withUnsafeBytes { EventJSONReader.read($0) } == event)
        }
        #expect(renditions.placeholders == placeholders)
    }

    @Test("The event docs/placeholders.md shows is one this build writes, byte for byte")
    func documentedRecord() throws {
        let example = try #require(try DocumentedRecordTests.jsonExamples(in: "docs/placeholders.md").first)
        guard case .event(let event) = JobEvent.decode(Data(example.utf8)) else {
            Issue.record("not an event record: \(example)")
            return
        }
        #expect(event.result?.placeholders?.kinds == Set(PlaceholderKind.allCases))
        #expect(String(decoding: EventJSONWriter.bytes(event), as: UTF8.self) == example)
    }
}
