import DarkroomQueue
import Foundation
import Testing

@testable import DarkroomCLI

@Suite("Queue commands: --since and filters")
struct QueueCLIParsingTests {
    @Test("--since reads event ids, ISO-8601 times, bare dates and ages; --follow alone starts at the end")
    func sinceForms() throws {
        let now = try #require(Timestamp(iso8601: "2025-03-01T12:00:00.000Z"))
        #expect(try EventStart.parse(since: nil, follow: false) == .beginning)
        #expect(try EventStart.parse(since: nil, follow: true) == .latest)
        #expect(try EventStart.parse(since: "1700000000000-3", follow: true) == .cursor(EventCursor(rawValue: "1700000000000-3")))
        #expect(try EventStart.parse(since: "1700000000000", follow: false) == .cursor(EventCursor(rawValue: "1700000000000-0")))
        #expect(
            try EventStart.parse(since: "2025-03-01T10:30:00+02:00", follow: false)
                == .time(try #require(Timestamp(iso8601: "2025-03-01T08:30:00Z"))))
        #expect(
            try EventStart.parse(since: "2025-03-01T10:30:00", follow: false)
                == .time(try #require(Timestamp(iso8601: "2025-03-01T10:30:00Z"))))
        #expect(
            try EventStart.parse(since: "2025-02-28", follow: false)
                == .time(try #require(Timestamp(iso8601: "2025-02-28T00:00:00Z"))))
        #expect(
            try EventStart.parse(since: "10m", follow: false, now: now)
                == .time(try #require(Timestamp(iso8601: "2025-03-01T11:50:00Z"))))
        #expect(
            try EventStart.parse(since: "1h30m", follow: true, now: now)
                == .time(try #require(Timestamp(iso8601: "2025-03-01T10:30:00Z"))))
        for bad in ["yesterday", "10 parsecs", "1-2-3", "2025-13-01", ""] {
            #expect(throws: UsageFailure.self) { try EventStart.parse(since: bad, follow: false) }
        }
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
}
