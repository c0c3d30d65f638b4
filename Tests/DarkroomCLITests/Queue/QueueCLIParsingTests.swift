@testable import DarkroomCLI
import DarkroomQueue
import Foundation
import Testing

@Suite("Queue commands: reading job lists, --since, paths and filters")
struct QueueCLIParsingTests {
    @Test("A job list skips blank lines and comments, and keeps each source's line number")
    func plainLines() throws {
        let text = "# photos\n\n  cat.jpg  \r\nhttps://x.example/dog.png\n   # indented comment\n/abs/b.jpg\n"
        let requests = try SourceList.parse(Data(text.utf8), name: "list.txt").get()
        #expect(requests == [JobRequest(line: 3, source: "cat.jpg"),
                             JobRequest(line: 4, source: "https://x.example/dog.png"),
                             JobRequest(line: 6, source: "/abs/b.jpg")])
    }

    @Test("A JSON line overrides the flags with its own chain, format, quality, priority, id and output")
    func jsonLines() throws {
        let text = #"{"source": "a.jpg", "chain": "blur(2)", "format": "webp", "quality": 70, "priority": "HIGH", "id": "k1", "output": "out"}"#
            + "\n" + #"{"source": "b.jpg", "quality": null}"#
        let requests = try SourceList.parse(Data(text.utf8), name: "l").get()
        #expect(requests == [
            JobRequest(line: 1, source: "a.jpg", chain: "blur(2)", format: "webp", quality: 70, priority: .high, id: "k1", output: "out"),
            JobRequest(line: 2, source: "b.jpg"),
        ])
    }

    @Test("Every bad line is reported with its number and what is wrong with it")
    func badLines() throws {
        let text = [
            #"{"source": "a.jpg", "quality": true}"#,
            #"{"chain": "blur(1)"}"#,
            #"{"source": "a.jpg", "colour": "red"}"#,
            #"{"source": "a.jpg", "priority": "urgent"}"#,
            #"{"source": 12}"#,
            #"{"source": "a.jpg", "quality": 101}"#,
            "{not json",
            "fine.jpg",
            #"{"source": ""}"#,
        ].joined(separator: "\n")
        guard case .failure(let failure) = SourceList.parse(Data(text.utf8), name: "jobs.txt") else {
            Issue.record("bad lines were accepted")
            return
        }
        #expect(failure.errors.map(\.line) == [1, 2, 3, 4, 5, 6, 7, 9])
        let messages = failure.errors.map(\.description)
        #expect(messages[0] == "jobs.txt:1: 'quality' must be a whole number 1…100")
        #expect(messages[1] == "jobs.txt:2: missing \"source\"")
        #expect(messages[2].hasPrefix("jobs.txt:3: unknown key 'colour'; the keys are chain, format, id, output, priority, quality, source"))
        #expect(messages[3] == "jobs.txt:4: 'priority' must be high, normal or low (got 'urgent')")
        #expect(messages[4] == "jobs.txt:5: 'source' must be a string")
        #expect(messages[5] == "jobs.txt:6: 'quality' must be 1…100 (got 101)")
        #expect(messages[6].hasPrefix("jobs.txt:7: not valid JSON"))
        #expect(messages[7] == "jobs.txt:9: 'source' is empty; leave it out to use the flag")
    }

    @Test("A line that is not UTF-8 is refused by number; parsing stops after the error limit")
    func invalidUTF8AndLimit() throws {
        var data = Data("ok.jpg\n".utf8)
        data.append(contentsOf: [0xFF, 0xFE, 0x0A])
        guard case .failure(let failure) = SourceList.parse(data, name: "l") else {
            Issue.record("invalid UTF-8 was accepted")
            return
        }
        #expect(failure.errors == [SourceListError(file: "l", line: 2, message: "not valid UTF-8")])
        let many = Data(String(repeating: "{\n", count: 50).utf8)
        guard case .failure(let capped) = SourceList.parse(many, name: "l", maxErrors: 5) else {
            Issue.record("bad lines were accepted")
            return
        }
        #expect(capped.errors.count == 5)
        #expect(capped.truncated)
    }

    @Test("--since reads event ids, ISO-8601 times, bare dates and ages; --follow alone starts at the end")
    func sinceForms() throws {
        let now = try #require(Timestamp(iso8601: "2025-03-01T12:00:00.000Z"))
        #expect(try EventStart.parse(since: nil, follow: false) == .beginning)
        #expect(try EventStart.parse(since: nil, follow: true) == .latest)
        #expect(try EventStart.parse(since: "1700000000000-3", follow: true) == .cursor(EventCursor(rawValue: "1700000000000-3")))
        #expect(try EventStart.parse(since: "1700000000000", follow: false) == .cursor(EventCursor(rawValue: "1700000000000-0")))
        #expect(try EventStart.parse(since: "2025-03-01T10:30:00+02:00", follow: false)
            == .time(try #require(Timestamp(iso8601: "2025-03-01T08:30:00Z"))))
        #expect(try EventStart.parse(since: "2025-03-01T10:30:00", follow: false)
            == .time(try #require(Timestamp(iso8601: "2025-03-01T10:30:00Z"))))
        #expect(try EventStart.parse(since: "2025-02-28", follow: false)
            == .time(try #require(Timestamp(iso8601: "2025-02-28T00:00:00Z"))))
        #expect(try EventStart.parse(since: "10m", follow: false, now: now)
            == .time(try #require(Timestamp(iso8601: "2025-03-01T11:50:00Z"))))
        #expect(try EventStart.parse(since: "1h30m", follow: true, now: now)
            == .time(try #require(Timestamp(iso8601: "2025-03-01T10:30:00Z"))))
        for bad in ["yesterday", "10 parsecs", "1-2-3", "2025-13-01", ""] {
            #expect(throws: UsageFailure.self) { try EventStart.parse(since: bad, follow: false) }
        }
    }

    @Test("Relative paths become absolute and normalised; URLs and data: URIs stay as typed")
    func paths() {
        #expect(PathResolver.source("photos/./cat.jpg", from: "/home/ann") == "/home/ann/photos/cat.jpg")
        #expect(PathResolver.source("../x//y.jpg", from: "/home/ann") == "/home/x/y.jpg")
        #expect(PathResolver.source("/srv/a.jpg", from: "/home/ann") == "/srv/a.jpg")
        #expect(PathResolver.source("https://h/a.jpg?w=1", from: "/x") == "https://h/a.jpg?w=1")
        #expect(PathResolver.source("data:image/png;base64,AAAA", from: "/x") == "data:image/png;base64,AAAA")
        #expect(PathResolver.source("file:///srv/a.jpg", from: "/x") == "file:///srv/a.jpg")
        #expect(PathResolver.source("a:b.jpg", from: "/x") == "/x/a:b.jpg")
        #expect(PathResolver.absolute("../../..", from: "/a") == "/")
    }

    @Test("Event filters match batch, job and types; type names are case-insensitive and comma-separable")
    func filters() throws {
        let filter = try EventFilter(batch: "b1", job: nil, types: ["Succeeded,failed", "dead"])
        #expect(filter.types == [.succeeded, .failed, .dead])
        let id = try #require(JobID(rawValue: "j1"))
        let result = QueueCLITestKit.result()
        #expect(filter.matches(.succeeded(job: id, batch: "b1", worker: "w", attempt: 1, result: result)))
        #expect(!filter.matches(.succeeded(job: id, batch: "b2", worker: "w", attempt: 1, result: result)))
        #expect(!filter.matches(.started(job: id, batch: "b1", worker: "w", attempt: 1)))
        let byJob = EventFilter(job: "j2")
        #expect(!byJob.matches(.started(job: id, batch: "b1", worker: "w", attempt: 1)))
        #expect(throws: UsageFailure.self) { try EventFilter(batch: nil, job: nil, types: ["finished"]) }
    }

    @Test("A UUIDv7 job id gives its creation time; other ids give none")
    func uuidTime() throws {
        let made = try #require(Timestamp(iso8601: "2025-03-01T12:34:56.789Z"))
        #expect(JobLookup.creationTime(of: JobID.make(now: made, using: SortableIDGenerator())) == made)
        #expect(JobLookup.creationTime(of: try #require(JobID(rawValue: "photos/cat.jpg"))) == nil)
        #expect(JobLookup.creationTime(of: try #require(JobID(rawValue: "123e4567-e89b-12d3-a456-426614174000"))) == nil)
    }
}
