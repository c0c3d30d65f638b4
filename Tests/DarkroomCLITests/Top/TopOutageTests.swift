import DarkroomQueue
import Testing

@testable import DarkroomCLI

@Suite("darkroom top's Redis outage line")
struct TopOutageTests {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "connection refused" }
    }

    @Test("Given Redis answers, then there is no outage line")
    func noOutage() {
        var outage = TopOutage()
        outage.succeeded(at: Timestamp(millisecondsSince1970: 1_000))
        #expect(outage.line(now: Timestamp(millisecondsSince1970: 2_000)) == nil)
        #expect(!outage.isOngoing)
    }

    @Test("Given reads fail after a good one, then the line names when it began, for how long, and the last good read")
    func outageLine() throws {
        var outage = TopOutage()
        let good = Timestamp(millisecondsSince1970: 1_790_000_000_000)
        outage.succeeded(at: good)
        let first = Timestamp(millisecondsSince1970: good.millisecondsSince1970 + 1_000)
        outage.failed(Refused(), at: first)
        // A second failure keeps the start of the outage.
        outage.failed(Refused(), at: Timestamp(millisecondsSince1970: first.millisecondsSince1970 + 4_000))
        let line = try #require(outage.line(now: Timestamp(millisecondsSince1970: first.millisecondsSince1970 + 5_000)))
        #expect(line.contains("Redis is unreachable since \(first.iso8601) (5 s"))
        #expect(line.contains("last good read \(good.iso8601)"))
        #expect(line.hasSuffix("retrying: connection refused"))
    }

    @Test("Given Redis answers again, then the outage ends")
    func recovery() {
        var outage = TopOutage()
        outage.failed(Refused(), at: Timestamp(millisecondsSince1970: 1_000))
        #expect(outage.line(now: Timestamp(millisecondsSince1970: 1_000))?.contains("no good read yet") == true)
        outage.succeeded(at: Timestamp(millisecondsSince1970: 2_000))
        #expect(outage.line(now: Timestamp(millisecondsSince1970: 3_000)) == nil)
        #expect(outage.lastGoodRead == Timestamp(millisecondsSince1970: 2_000))
    }
}
