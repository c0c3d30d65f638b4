import DarkroomQueue
import Foundation
import Testing

@Suite("Job ids are sortable UUIDv7 strings or user keys")
struct JobIDTests {
    @Test("A made id is a lowercase UUIDv7 carrying the time in its first 48 bits")
    func uuidv7Layout() throws {
        let now = Timestamp(millisecondsSince1970: 1_750_000_000_123)
        let id = JobID.make(now: now, using: SortableIDGenerator()).rawValue
        #expect(id.count == 36)
        let parts = id.split(separator: "-").map(String.init)
        #expect(parts.map(\.count) == [8, 4, 4, 4, 12])
        #expect(parts[2].hasPrefix("7"))
        #expect(["8", "9", "a", "b"].contains(parts[3].prefix(1)))
        let time = try #require(UInt64(parts[0] + parts[1], radix: 16))
        #expect(time == 1_750_000_000_123)
        #expect(id == id.lowercased())
    }

    @Test("Ids made by one generator strictly increase, even in one millisecond or when the clock steps back")
    func monotonic() {
        let generator = SortableIDGenerator()
        let base = Timestamp(millisecondsSince1970: 1_750_000_000_000)
        var previous = ""
        var seen = Set<String>()
        for index in 0..<10_000 {
            // Mostly the same millisecond, sometimes a step back in time.
            let now = base.adding(.milliseconds(index % 7 == 0 ? -5 : index / 3000))
            let id = generator.make(now: now)
            #expect(id > previous)
            previous = id
            seen.insert(id)
        }
        #expect(seen.count == 10_000)
    }

    @Test("Ids made later sort after ids made earlier, across generators")
    func sortsByTime() {
        let early = JobID.make(now: Timestamp(millisecondsSince1970: 1_000), using: SortableIDGenerator())
        let late = JobID.make(now: Timestamp(millisecondsSince1970: 2_000), using: SortableIDGenerator())
        #expect(early < late)
    }

    @Test("User keys may be paths or URLs but not empty, over 200 bytes or with control characters")
    func userKeys() {
        #expect(JobID(rawValue: "photos/2025/IMG 0001.jpg")?.rawValue == "photos/2025/IMG 0001.jpg")
        #expect(JobID(rawValue: "https://example.com/a.jpg?x=1") != nil)
        #expect(JobID(rawValue: "") == nil)
        #expect(JobID(rawValue: String(repeating: "a", count: 201)) == nil)
        #expect(JobID(rawValue: String(repeating: "é", count: 100)) != nil)
        #expect(JobID(rawValue: "line\nbreak") == nil)
        #expect(JobID(rawValue: "esc\u{1B}[31m") == nil)
        #expect(JobID(rawValue: "c1\u{85}") == nil)
    }
}
