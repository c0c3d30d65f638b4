import DarkroomFleetStatus
import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomCoordinator

/// A batch's job index (`{p}:batchjobs:<state>:<batch>`): filled by the enqueue script, moved by
/// the coordinator's fold, read a page at a time.
@Suite("A batch's job index in Redis")
struct BatchJobIndexTests {
    typealias Fleet = ProjectionTests.Fleet

    static func ids(_ page: BatchJobPage) -> [String] { page.jobs.map(\.id.rawValue) }

    @Test("Given 20 jobs folded over pages of 7 events, each is listed once, in enqueue order, in the state its projection has")
    func listsEveryJobInItsState() async throws {
        let fleet = try Fleet()
        defer { fleet.close() }
        let names = (1...20).map { String(format: "j%02d", $0) }
        _ = try await fleet.queue.enqueue(names.map { QueueTestKit.job($0, batch: "b") })
        // An enqueue of a known id adds nothing to the index; another batch has its own.
        _ = try await fleet.queue.enqueue([QueueTestKit.job("j01", batch: "b"), QueueTestKit.job("x1", batch: "other")])
        let queued = try await fleet.store.batchJobs("b", state: nil, after: nil, limit: 100)
        #expect(Self.ids(queued) == names)
        #expect(queued.jobs.allSatisfy { $0.state == .queued && $0.attempts == 0 && $0.updatedAt == nil })
        #expect(queued.nextCursor == nil)

        // j01–j05 succeed, j06–j07 fail for good, j08 is dead-lettered; j09 runs; the rest wait.
        try await QueueTestKit.finish(fleet.queue, count: 8, consumer: "w") { job in
            switch job.id.rawValue {
            case "j06", "j07": .failed(JobError(code: "image.corrupt", message: "bad bytes"))
            case "j08": nil
            default: .succeeded(QueueTestKit.result())
            }
        }
        let running = try await fleet.queue.reserve(consumer: "w", max: 1, wait: .zero)
        try await fleet.queue.publish([.started(job: running[0].job.id, batch: "b", worker: "w", attempt: 1)])
        try await fleet.catchUp(fleet.coordinator("c1"))

        let all = try await fleet.store.batchJobs("b", state: nil, after: nil, limit: 100)
        #expect(Self.ids(all) == names)
        for entry in all.jobs {
            let projected = try await fleet.store.jobProjection(entry.id)
            #expect(entry.updatedAt == projected?.latest.at)
            #expect(entry.attempts == (projected?.latest.attempt ?? 0))
        }
        #expect(
            all.jobs.map(\.state.rawValue) == Array(repeating: "succeeded", count: 5) + ["failed", "failed", "dead", "running"]
                + Array(repeating: "queued", count: 11))
        #expect(Self.ids(try await fleet.store.batchJobs("b", state: .failed, after: nil, limit: 100)) == ["j06", "j07"])
        #expect(try await fleet.store.batchJobs("b", state: .queued, after: nil, limit: 100).jobs.count == 11)
        #expect(Self.ids(try await fleet.store.batchJobs("other", state: nil, after: nil, limit: 100)) == ["x1"])
        #expect(try await fleet.store.batchJobs("none", state: nil, after: nil, limit: 100).jobs.isEmpty)
    }

    @Test("Pages of 3 over every state, and over one, follow each other by cursor to the last page; a bad cursor throws")
    func pagesFollowByCursor() async throws {
        let fleet = try Fleet()
        defer { fleet.close() }
        let names = (1...10).map { "k\($0)" }
        _ = try await fleet.queue.enqueue(names.map { QueueTestKit.job($0, batch: "b") })
        try await QueueTestKit.finish(fleet.queue, count: 4, consumer: "w") { _ in .succeeded(QueueTestKit.result()) }
        try await fleet.catchUp(fleet.coordinator("c1"))

        for state: BatchJobState? in [nil, .queued, .succeeded] {
            var listed: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try await fleet.store.batchJobs("b", state: state, after: cursor, limit: 3)
                #expect(page.jobs.count <= 3)
                listed += Self.ids(page)
                cursor = page.nextCursor
                pages += 1
            } while cursor != nil && pages < 10
            let expected =
                switch state {
                case nil: names
                case .queued?: Array(names.dropFirst(4))
                default: Array(names.prefix(4))
                }
            #expect(listed == expected, "\(String(describing: state))")
        }
        await #expect(throws: JobQueueError.self) { try await fleet.store.batchJobs("b", state: nil, after: "k3", limit: 3) }
    }
}
