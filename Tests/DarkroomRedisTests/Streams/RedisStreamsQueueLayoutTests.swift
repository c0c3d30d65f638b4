import DarkroomQueue
import DarkroomQueueContract
import DarkroomSystem
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomRedis

/// What the Redis driver leaves in Redis: groups, deleted entries, markers, the exact records.
@Suite("RedisStreamsQueue key layout")
struct RedisStreamsQueueLayoutTests {
    typealias Kit = StreamsTestKit

    @Test("Given no worker ever ran, when jobs are enqueued, then every stream has the workers group and the backlog shows as lag")
    func groupExistsAfterEnqueueAlone() async throws {
        let server = try Kit.sharedServer.get()
        let client = try Kit.client(server)
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("layout"))
        #expect(try await queue.enqueue([Kit.job("a"), Kit.job("b", priority: .high)]) == 2)
        for priority in JobPriority.allCases {
            let groups = try #require(try await client.command(["XINFO", "GROUPS", queue.keys.stream(priority)]).array)
            #expect(groups.count == 1)
            let fields = try #require(groups.first?.array)
            let info = Dictionary(
                uniqueKeysWithValues: stride(from: 0, to: fields.count - 1, by: 2).compactMap { index in
                    fields[index].string.map { ($0, fields[index + 1]) }
                })
            #expect(info["name"]?.string == "workers")
            #expect(info["lag"]?.integer == (priority == .low ? 0 : 1))
        }
    }

    @Test("Finished, retried, dead-lettered, released and cancelled entries are deleted, so the streams hold only unfinished work")
    func finishedEntriesAreDeleted() async throws {
        let server = try Kit.sharedServer.get()
        let client = try Kit.client(server)
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("xdel"))
        let stream = queue.keys.stream(.normal)
        _ = try await queue.enqueue(["a", "b", "c", "d", "e", "f"].map { Kit.job($0) })
        #expect(try await client.command(["XLEN", stream]).integer == 6)
        let taken = try await queue.reserve(consumer: "w1", max: 4, wait: .zero)
        #expect(taken.count == 4)
        #expect(try await queue.acknowledge(taken[0], outcome: .succeeded(QueueContractKit.result)))
        #expect(try await queue.retry(taken[1], after: .seconds(60), error: JobError(code: "x.y", message: "later")) != .notPending)
        #expect(try await queue.deadLetter(taken[2], error: JobError(code: "x.y", message: "dead")))
        #expect(try await queue.release(taken[3], after: .seconds(60)))
        #expect(try await queue.cancel(batch: "b1") == 4)  // e, f ready; b (retry) and d (release) delayed
        #expect(try await client.command(["XLEN", stream]).integer == 0)
        #expect(try await client.command(["ZCARD", queue.keys.delayed]).integer == 0)
        let counts = try await queue.counts()
        #expect(counts.readyTotal == 0 && counts.pending == 0 && counts.delayed == 0 && counts.deadLettered == 1)
    }

    @Test("The idempotency marker of a finished job stays, with its expiry, so enqueueing the id again is a no-op")
    func markerSurvivesFinishedJob() async throws {
        let server = try Kit.sharedServer.get()
        let client = try Kit.client(server)
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("marker"), idempotencyWindow: .seconds(3600))
        _ = try await queue.enqueue([Kit.job("once", batch: "m")])
        let delivery = try #require(try await queue.reserve(consumer: "w1", max: 1, wait: .zero).first)
        #expect(try await queue.acknowledge(delivery, outcome: .succeeded(QueueContractKit.result)))
        let marker = queue.keys.marker(delivery.job.id)
        #expect(try await client.command(["GET", marker]).string == "m")
        let ttl = try #require(try await client.command(["PTTL", marker]).integer)
        #expect(ttl > 3_500_000 && ttl <= 3_600_000)
        #expect(try await queue.enqueue([Kit.job("once", batch: "m")]) == 0)
        #expect(try await queue.batchProgress("m") == BatchProgress(total: 1, succeeded: 1))
    }

    @Test("The combined call counts into a batch hash that exists, extends its expiry, stamps endedAt, and never recreates one that is gone")
    func combinedCallAndTheBatchHash() async throws {
        let server = try Kit.sharedServer.get()
        let client = try Kit.client(server)
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("ackbatch"), idempotencyWindow: .seconds(3600))
        _ = try await queue.enqueue([Kit.job("k1", batch: "kept"), Kit.job("k2", batch: "kept"), Kit.job("g1", batch: "gone")])
        let kept = queue.keyPrefix + ":batch:kept"
        let gone = queue.keyPrefix + ":batch:gone"
        // An expiry shorter than the window (10 minutes against an hour: long enough to outlast a
        // slow run) is extended; a hash that is gone stays gone.
        _ = try await client.command(["PEXPIRE", kept, "600000"]).throwingOnError()
        _ = try await client.command(["DEL", gone]).throwingOnError()
        let taken = try await queue.reserve(consumer: "w1", max: 3, wait: .zero)
        #expect(taken.count == 3)
        let answer = try await queue.acknowledge(
            taken.map { (delivery: $0, outcome: .succeeded(QueueContractKit.result)) }, publishing: [],
            reserving: NextReservation(consumer: "w1", max: 1))
        #expect(answer.acknowledged == [true, true, true])
        #expect(try await queue.batchProgress("kept") == BatchProgress(total: 2, succeeded: 2))
        let ttl = try #require(try await client.command(["PTTL", kept]).integer)
        #expect(ttl > 3_500_000 && ttl <= 3_600_000)
        #expect(try await client.command(["HGET", kept, "endedAt"]).string != nil)
        #expect(try await client.command(["EXISTS", gone]).integer == 0)
        // Every acknowledgement published its terminal event, with the cap read once per call.
        let events = try StreamReplies.entries(try await client.command(["XRANGE", queue.keys.events, "-", "+"]))
        #expect(events.count == 2 + 3)  // batchEnqueued for each batch, one succeeded per job
    }

    @Test("Stream entries hold exactly Job's JSON, events exactly JobEvent's, dead letters job, error and at")
    func recordsAreTheSharedEncodings() async throws {
        let server = try Kit.sharedServer.get()
        let client = try Kit.client(server)
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("json"))
        let job = Job(
            id: try #require(JobID(rawValue: "q\"uote/slash")), batch: #"batch "count":7"#, source: "https://example.com/a b.jpg",
            chain: "resize(100x100, mode: fit)", format: "webp", quality: 80, priority: .low, output: "/out/x",
            enqueuedAt: Timestamp(millisecondsSince1970: 1_700_000_000_123))
        _ = try await queue.enqueue([job])
        let entry = try #require(try StreamReplies.entries(try await client.command(["XRANGE", queue.keys.stream(.low), "-", "+"])).first)
        #expect(entry.value("job") == Array(try job.jsonData()))

        let events = try StreamReplies.entries(try await client.command(["XRANGE", queue.keys.events, "-", "+"]))
        let raw = try #require(events.first?.value("event"))
        guard case .event(let event) = JobEvent.decode(Data(raw)) else {
            Issue.record("the batchEnqueued event does not decode: \(String(decoding: raw, as: UTF8.self))")
            return
        }
        #expect(event.count == 1)
        #expect(event.batch == job.batch)
        #expect(raw == Array(try event.jsonData()))

        let delivery = try #require(try await queue.reserve(consumer: "w1", max: 1, wait: .zero).first)
        let error = JobError(code: "image.corrupt", message: "bad \"marker\" at /0x10")
        #expect(try await queue.deadLetter(delivery, error: error))
        let letter = try #require(try StreamReplies.entries(try await client.command(["XRANGE", queue.keys.dead, "-", "+"])).first)
        #expect(letter.value("job") == Array(try job.jsonData()))
        #expect(letter.value("error") == Array(try RecordJSON.encoder().encode(error)))
        #expect(letter.value("at").flatMap { Timestamp(iso8601: String(decoding: $0, as: UTF8.self)) } != nil)
        let dead = try StreamReplies.entries(try await client.command(["XRANGE", queue.keys.events, "-", "+"])).last
        let deadJSON = try #require(dead?.value("event"))
        guard case .event(let deadEvent) = JobEvent.decode(Data(deadJSON)) else {
            Issue.record("the dead event does not decode")
            return
        }
        #expect(deadEvent.type == .dead && deadEvent.error == error && deadEvent.worker == "w1")
        #expect(deadJSON == Array(try deadEvent.jsonData()))
    }

    @Test("More than one chunk of jobs is enqueued in full, the batch counts them all, and each batch is announced once with the sum")
    func bigEnqueue() async throws {
        let server = try Kit.sharedServer.get()
        let client = try Kit.client(server)
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("big"))
        let count = RedisStreamsQueue.enqueueChunk * 2 + 345
        let jobs = (0..<count).map { Kit.job("j\($0)", batch: $0 % 2 == 0 ? "even" : "odd") }
        let reported = Locked<[Int]>([])
        #expect(try await queue.enqueue(jobs + jobs.prefix(10)) { sent in reported.withLock { $0.append(sent) } } == count)
        #expect(reported.withLock { $0 }.last == count + 10)
        #expect(reported.withLock { $0 } == reported.withLock { $0 }.sorted())
        #expect(try await queue.counts().ready[.normal] == count)
        #expect(try await queue.batchProgress("even")?.total == (count + 1) / 2)
        let announced = try await QueueContractKit.allEvents(queue).filter { $0.type == .batchEnqueued }
        #expect(announced.compactMap(\.count).reduce(0, +) == count)
        #expect(announced.map(\.batch) == ["even", "odd"])  // one per batch for the whole call
        #expect(announced.map(\.count) == [(count + 1) / 2, count / 2])
        var seen = 0
        while true {
            let page = try await queue.reserve(consumer: "w1", max: 500, wait: .zero)
            if page.isEmpty { break }
            #expect(page.map(\.job.id.rawValue) == (seen..<(seen + page.count)).map { "j\($0)" })
            seen += page.count
        }
        #expect(seen == count)
    }

    @Test(
        "Given a batch bigger than a chunk, re-sent ids and a later call with a delayed job, then the batch's job index holds each new job once, scored by its place in the batch"
    )
    func batchJobIndexAcrossChunks() async throws {
        let server = try Kit.sharedServer.get()
        let client = try Kit.client(server)
        defer { client.close() }
        let prefix = Kit.prefix("index")
        let queue = RedisStreamsQueue(client: client, keyPrefix: prefix)
        // A whole chunk of one batch takes more than one of the script's ZADD slices; the rest
        // share the second chunk with another batch.
        let count = RedisStreamsQueue.enqueueChunk + 700
        let jobs = (0..<count).map { Kit.job("j\($0)", batch: $0 < RedisStreamsQueue.enqueueChunk || $0 % 2 == 0 ? "big" : "other") }
        let big = jobs.filter { $0.batch == "big" }.map(\.id.rawValue)
        #expect(try await queue.enqueue(jobs + jobs.prefix(5)) == count)
        let later = [Kit.job("j3", batch: "big"), Kit.job("late", batch: "big"), Kit.job("due", batch: "big", notBefore: .now().adding(.seconds(3600)))]
        #expect(try await queue.enqueue(later) == 2)

        let reply = try await client.command(["ZRANGE", "\(prefix):batchjobs:queued:big", "0", "-1", "WITHSCORES"])
        let flat = (reply.array ?? []).compactMap(\.string)
        let members = stride(from: 0, to: flat.count, by: 2).map { flat[$0] }
        let scores = stride(from: 1, to: flat.count, by: 2).map { Int(flat[$0]) }
        #expect(members == big + ["late", "due"])
        #expect(scores == (1...(big.count + 2)).map { $0 })
        #expect(try await queue.batchProgress("big")?.total == big.count + 2)
        let other = try await client.command(["ZCARD", "\(prefix):batchjobs:queued:other"])
        #expect(other.integer == Int64(count - big.count))
    }

    @Test("Tags, cursors and consumer names the driver did not make are refused or ignored, not sent to Redis")
    func foreignHandles() async throws {
        let server = try Kit.sharedServer.get()
        let client = try Kit.client(server)
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("foreign"))
        _ = try await queue.enqueue([Kit.job("a")])
        var delivery = try #require(try await queue.reserve(consumer: "w1", max: 1, wait: .zero).first)
        let real = delivery.tag
        for bogus in ["m-1", "normal", "normal 12", "urgent 1-0", "normal 1-0 x", "normal -1-0"] {
            delivery.tag = DeliveryTag(rawValue: bogus)
            #expect(try await queue.acknowledge(delivery, outcome: .succeeded(QueueContractKit.result)) == false)
            #expect(try await queue.extendLease(delivery) == false)
        }
        delivery.tag = real
        #expect(try await queue.extendLease(delivery))
        await #expect(throws: JobQueueError.self) {
            try await queue.readEvents(after: EventCursor(rawValue: "17"), limit: 1, wait: .zero)
        }
        await #expect(throws: JobQueueError.self) { try await queue.reserve(consumer: "", max: 1, wait: .zero) }
        await #expect(throws: JobQueueError.self) { try await queue.reserve(consumer: "bad\nname", max: 1, wait: .zero) }
    }
}
