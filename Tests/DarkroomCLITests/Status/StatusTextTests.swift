import DarkroomFleetStatus
import DarkroomQueue
import Foundation
import Testing

@testable import DarkroomCLI

@Suite("Status: the plain-text rendering")
struct StatusTextTests {
    /// A status as `status --json` and the coordinator's `/status` spell it.
    static func status(workers: String, deadWorkers: String?) throws -> FleetStatus {
        let dead = deadWorkers.map { #","deadWorkers":\#($0)"# } ?? ""
        let json = #"""
            {"at":"2026-11-27T12:00:00.000Z","queues":{"normal":{"ready":2}},"inFlight":3,"delayed":0,"deadLetters":0,
             "workers":\#(workers),"batches":[],"needsCoordinator":[]\#(dead)}
            """#
        return try JSONDecoder().decode(FleetStatus.self, from: Data(json.utf8))
    }

    static let live = #"""
        [{"name":"w1","host":"h","pid":7,"concurrency":4,"jobsDone":12,"modules":{},"version":"1.0",
          "startedAt":"2026-11-27T11:00:00.000Z","seenAt":"2026-11-27T11:59:59.000Z","errors":0,"currentJobs":1}]
        """#

    @Test("Given a worker that died holding jobs, then a line under the live workers names it, its abandoned jobs and when it was last seen")
    func deadWorkerIsListed() throws {
        let text = StatusText.render(
            try Self.status(
                workers: Self.live,
                deadWorkers: #"[{"name":"w2\u001b[2J","lastEventAt":"2026-11-27T11:40:00.000Z","abandonedJobs":2},{"name":"w3","abandonedJobs":1}]"#))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex(of: "Workers (1 live, 2 dead holding jobs)"))
        #expect(lines[header + 1].hasPrefix("  w1 · concurrency 4"))
        #expect(lines[header + 2] == "  w2?[2J · dead · 2 jobs abandoned until a live worker reclaims them · last seen 2026-11-27T11:40:00.000Z")
        #expect(lines[header + 3] == "  w3 · dead · 1 job abandoned until a live worker reclaims them")
    }

    @Test("Given no live worker but a dead one, then 'none' is not printed; given neither, it is; without a coordinator nothing about dead workers is")
    func noneOnlyWhenNoWorkerAtAll() throws {
        let onlyDead = StatusText.render(try Self.status(workers: "[]", deadWorkers: #"[{"name":"w2","abandonedJobs":3}]"#))
        #expect(onlyDead.contains("Workers (0 live, 1 dead holding jobs)\n  w2 · dead · 3 jobs abandoned"))
        #expect(!onlyDead.contains("  none\n"))
        let nobody = StatusText.render(try Self.status(workers: "[]", deadWorkers: "[]"))
        #expect(nobody.contains("Workers (0 live)\n  none\n"))
        let noCoordinator = StatusText.render(try Self.status(workers: Self.live, deadWorkers: nil))
        #expect(noCoordinator.contains("Workers (1 live)\n  w1 · "))
        #expect(!noCoordinator.contains("dead ·"))
    }
}
