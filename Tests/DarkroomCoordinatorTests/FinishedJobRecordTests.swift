import DarkroomClient
import DarkroomFleetStatus
import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomCoordinator
@testable import DarkroomHTTPAPI

/// What a finished job keeps in Redis (`FinishedJobRecord` in its marker, no `jobstate` hash), and
/// the look-ups it answers once the event stream has trimmed its terminal event: the store's
/// projection (`darkroom get`, `status --job`), the client's detail and the HTTP API's job view,
/// and a batch's job list. Real redis-server, events from the queue's own operations.
@Suite("A finished job's record in Redis")
struct FinishedJobRecordTests {
    typealias Kit = QueueTestKit
    typealias Fleet = ProjectionTests.Fleet

    static let renditions = JobResult(
        output: "/out/r1.webp", format: "webp", width: 40, height: 30, bytes: 99, cache: .miss,
        renditions: ["r1", "r2", "r3"].map {
            RenditionResult(name: $0, output: "/out/\($0).webp", format: "webp", width: 40, height: 30, bytes: 99, cache: .miss)
        })

    static func outcome(_ job: Job) -> JobOutcome? {
        switch job.id.rawValue {
        case "ok": .succeeded(Kit.result())
        case "three": .succeeded(renditions)
        case "bad": .failed(JobError(code: "image.corrupt", message: "bad bytes"))
        default: nil  // dead-lettered
        }
    }

    /// Enqueues and finishes `ok`, `three` (3 renditions), `bad` (failed) and `gone` (dead) in
    /// batch `b`, and folds every event.
    static func finishedFleet() async throws -> Fleet {
        let fleet = try Fleet()
        _ = try await fleet.queue.enqueue(["ok", "three", "bad", "gone"].map { Kit.job($0, batch: "b") })
        try await Kit.finish(fleet.queue, count: 4, consumer: "w", outcome: outcome)
        try await fleet.catchUp(fleet.coordinator("c1"))
        return fleet
    }

    func command(_ fleet: Fleet, _ arguments: [String]) async throws -> RedisReply {
        try await fleet.client.command(arguments)
    }

    @Test("Given finished jobs, each keeps its marker holding its record (a success's at most 44 bytes) and no jobstate hash, except a failure's errors")
    func keepsOnlyTheMarker() async throws {
        let fleet = try await Self.finishedFleet()
        defer { fleet.close() }
        for id in ["ok", "three", "bad", "gone"] {
            let marker = try #require(try await command(fleet, ["GET", "darkroom:job:\(id)"]).bytes)
            #expect(marker.first == 1, "\(id)'s marker holds a record")
            // A success's record fits the 44 bytes Redis stores inside its key's object (the
            // test clock stands still, so the event's time lags its stream id's by the run's
            // length, a few digits more than a fleet's clocks).
            if ["ok", "three"].contains(id) { #expect(marker.count <= 44, "\(id)'s record is stored inside its key's object") }
            let ttl = try #require(try await command(fleet, ["PTTL", "darkroom:job:\(id)"]).integer)
            #expect(ttl > 0)
        }
        #expect(try await command(fleet, ["EXISTS", "darkroom:jobstate:ok"]).integer == 0)
        #expect(try await command(fleet, ["EXISTS", "darkroom:jobstate:three"]).integer == 0)
        // A failure keeps its errors, and only them.
        let kept = try await command(fleet, ["HKEYS", "darkroom:jobstate:bad"]).array?.compactMap(\.string)
        #expect(kept == ["errors"])
    }

    @Test("While the stream holds the terminal event a look-up returns it whole; once trimmed, the record's fields")
    func lookUpAfterTrim() async throws {
        let fleet = try await Self.finishedFleet()
        defer { fleet.close() }
        let ok = JobID(rawValue: "ok")!
        let whole = try #require(try await fleet.store.jobProjection(ok))
        #expect(whole.trimmed == nil)
        #expect(whole.latest.result == Kit.result())
        #expect(whole.latest.source == "/data/a.jpg")

        _ = try await command(fleet, ["XTRIM", "darkroom:events", "MAXLEN", "0"])

        let summary = try #require(try await fleet.store.jobProjection(ok))
        #expect(summary.trimmed == JobProjection.Trimmed(outputs: 1))
        #expect(summary.latest.type == .succeeded)
        #expect(summary.latest.at == whole.latest.at)
        #expect((summary.latest.job, summary.latest.batch, summary.latest.attempt) == (ok, "b", 1))
        #expect(summary.latest.result == nil && summary.latest.source == nil && summary.latest.worker == nil)
        #expect(summary.cursor == whole.cursor)
        #expect((summary.starts, summary.durationMilliseconds) == (whole.starts, whole.durationMilliseconds))
        #expect(try await fleet.store.jobProjection(JobID(rawValue: "three")!)?.trimmed?.outputs == 3)

        // Through the client (`darkroom get`, `status --job`) and the HTTP API's job view.
        let detail = try await FleetClient(queue: fleet.queue).detail(ok)
        #expect(detail.status == JobStatus.ended(summary.latest))
        #expect(detail.trimmed == JobProjection.Trimmed(outputs: 1))
        let view = try #require(JobView(detail, id: ok))
        #expect((view.state, view.eventTrimmed, view.outputs, view.hasOutput) == ("succeeded", true, 1, false))
        #expect(view.updatedAt == whole.latest.at)
    }

    @Test("A failed and a dead job, trimmed, answer with their error code and keep every attempt's error")
    func failuresAfterTrim() async throws {
        let fleet = try await Self.finishedFleet()
        defer { fleet.close() }
        _ = try await command(fleet, ["XTRIM", "darkroom:events", "MAXLEN", "0"])
        let bad = try #require(try await fleet.store.jobProjection(JobID(rawValue: "bad")!))
        #expect(bad.latest.type == .failed && bad.latest.willRetry == false)
        #expect(bad.latest.error == JobError(code: "image.corrupt", message: ""))
        #expect(bad.errors.errors.map(\.error) == [JobError(code: "image.corrupt", message: "bad bytes")])
        let gone = try #require(try await fleet.store.jobProjection(JobID(rawValue: "gone")!))
        #expect(gone.latest.type == .dead)
        #expect(gone.latest.error?.code == "queue.test")
        #expect(gone.trimmed == JobProjection.Trimmed(outputs: nil))
    }

    @Test("A job retried, then finished, keeps its errors; a batch's job list reads the records")
    func retriedThenListed() async throws {
        let fleet = try Fleet(maxAttempts: 5)
        defer { fleet.close() }
        let at = fleet.clock.now()
        try await Kit.run(Kit.job("again", batch: "r"), on: fleet.queue, failures: 2, then: .succeeded, clock: fleet.clock)
        try await fleet.catchUp(fleet.coordinator("c1"))
        _ = try await command(fleet, ["XTRIM", "darkroom:events", "MAXLEN", "0"])
        let again = try #require(try await fleet.store.jobProjection(JobID(rawValue: "again")!))
        #expect(again.latest.type == .succeeded && again.latest.attempt == 3 && again.starts == 3)
        #expect(again.errors.errors.map(\.attempt) == [1, 2])
        #expect(again.errors.errors.first?.at == at)
        let page = try await fleet.store.batchJobs("r", state: nil, after: nil, limit: 10)
        #expect(page.jobs.map(\.attempts) == [3])
        #expect(page.jobs.map(\.updatedAt) == [again.latest.at])
    }

    @Test("Given 300 jobs, the ended ones are indexed in buckets of 128 places kept as listpacks, and pages cross them in place order")
    func bucketsOfEndedJobs() async throws {
        let fleet = try Fleet()
        defer { fleet.close() }
        let names = (1...300).map { String(format: "q%03d", $0) }
        _ = try await fleet.queue.enqueue(names.map { Kit.job($0, batch: "big") })
        // 290 end: every 50th fails, the rest succeed; 10 stay queued.
        let failing = Set(stride(from: 50, through: 290, by: 50).map { names[$0 - 1] })
        try await Kit.finish(fleet.queue, count: 290, consumer: "w") { job in
            failing.contains(job.id.rawValue) ? .failed(JobError(code: "image.corrupt", message: "bad")) : .succeeded(Kit.result())
        }
        try await fleet.catchUp(fleet.coordinator("c1"))
        for bucket in 0...2 {
            #expect(try await command(fleet, ["OBJECT", "ENCODING", "darkroom:batchjobs:succeeded/\(bucket):big"]).string == "listpack")
        }
        #expect(try await command(fleet, ["EXISTS", "darkroom:batchjobs:succeeded:big"]).integer == 0)

        func walk(_ state: BatchJobState?, limit: Int) async throws -> [String] {
            var listed: [String] = []
            var cursor: String?
            repeat {
                let page = try await fleet.store.batchJobs("big", state: state, after: cursor, limit: limit)
                #expect(page.jobs.count <= limit)
                listed += page.jobs.map(\.id.rawValue)
                cursor = page.nextCursor
            } while cursor != nil && listed.count <= 300
            return listed
        }
        #expect(try await walk(nil, limit: 100) == names)
        #expect(try await walk(nil, limit: 7) == names)
        #expect(try await walk(.failed, limit: 2) == names.filter(failing.contains))
        #expect(try await walk(.succeeded, limit: 100) == names.prefix(290).filter { !failing.contains($0) })
        #expect(try await walk(.queued, limit: 100) == Array(names.suffix(10)))
        let page = try await fleet.store.batchJobs("big", state: nil, after: nil, limit: 300)
        #expect(page.jobs.prefix(290).allSatisfy { $0.attempts == 1 && $0.updatedAt != nil })
    }

    @Test("A duplicate id enqueued after its job finished is still refused, and named in its own batch")
    func idempotencyAfterRecord() async throws {
        let fleet = try await Self.finishedFleet()
        defer { fleet.close() }
        let same = try await fleet.queue.enqueueReport([Kit.job("ok", batch: "b")], progress: nil)
        #expect(same.added == 0 && same.known == 1 && same.knownElsewhere.isEmpty)
        let other = try await fleet.queue.enqueueReport([Kit.job("ok", batch: "other"), Kit.job("new", batch: "other")], progress: nil)
        #expect(other.added == 1)
        #expect(other.knownElsewhere.map(\.batch) == ["b"])
        #expect(other.knownElsewhere.map(\.count) == [1])
    }

    @Test("A job finished under the old layout (a jobstate hash holding its event, the marker its batch) is still answered")
    func oldLayout() async throws {
        let fleet = try Fleet()
        defer { fleet.close() }
        let id = JobID(rawValue: "before")!
        let event = JobEvent.succeeded(job: id, batch: "b", worker: "w", attempt: 1, result: Kit.result(), source: "/data/a.jpg", chain: "blur(2)")
        let json = String(decoding: try RecordJSON.encoder().encode(event), as: UTF8.self)
        _ = try await command(fleet, ["SET", "darkroom:job:before", "b", "PX", "600000"])
        _ = try await command(
            fleet,
            [
                "HSET", "darkroom:jobstate:before", "state", "succeeded", "worker", "w", "event", json, "id", "1700000000000-0",
                "startedAt", "1700000000000", "starts", "1", "durationMs", "12",
            ])
        let found = try #require(try await fleet.store.jobProjection(id))
        #expect(found.latest == event)
        #expect((found.starts, found.durationMilliseconds, found.trimmed) == (1, 12, nil))
        #expect(found.cursor == EventCursor(rawValue: "1700000000000-0"))
    }

    @Test("A dead job retried from the dead-letter queue and running again is answered, and listed in its batch, by its running state, not its old record")
    func runningAgain() async throws {
        let fleet = try await Self.finishedFleet()
        defer { fleet.close() }
        #expect(try await fleet.queue.retryDeadLetters(ids: nil) == 1)
        // The retry puts it back in its batch's `queued`, at its place.
        let requeued = try await fleet.store.batchJobs("b", state: nil, after: nil, limit: 10)
        #expect(requeued.jobs.map(\.id.rawValue) == ["ok", "three", "bad", "gone"])
        #expect(requeued.jobs.last?.state == .queued)
        let delivery = try #require(try await fleet.queue.reserve(consumer: "w2", max: 1, wait: .zero).first)
        try await fleet.queue.publish([.started(job: delivery.job.id, batch: "b", worker: "w2", attempt: 1)])
        try await fleet.catchUp(fleet.coordinator("c1"))
        let gone = try #require(try await fleet.store.jobProjection(JobID(rawValue: "gone")!))
        #expect(gone.latest.type == .started && gone.latest.worker == "w2")
        #expect(gone.trimmed == nil)
        let listed = try await fleet.store.batchJobs("b", state: nil, after: nil, limit: 10)
        #expect(listed.jobs.map(\.state) == [.succeeded, .succeeded, .failed, .running])
    }
}
