import DarkroomQueue
import DarkroomQueueContract
import DarkroomTestSupport
import Foundation
import Testing

@testable import DarkroomRedis

/// Blocking reserves and concurrent consumers on a real Redis.
@Suite("RedisStreamsQueue waiting and concurrency", .realTime)
struct RedisStreamsQueueWaitingTests {
    typealias Kit = StreamsTestKit

    private static func queue(_ label: String) throws -> (RedisClient, RedisStreamsQueue) {
        let client = try Kit.client(try Kit.sharedServer.get())
        return (client, RedisStreamsQueue(client: client, keyPrefix: Kit.prefix(label)))
    }

    @Test("A reserve waiting on an empty queue is woken by an enqueue (XREADGROUP BLOCK) and gets the job")
    func wokenByEnqueue() async throws {
        let (client, queue) = try Self.queue("wake")
        defer { client.close() }
        try await queue.ensureGroups()
        let waiter = Task { try await queue.reserve(consumer: "w1", max: 5, wait: .seconds(20)) }
        try await Task.sleep(for: .milliseconds(300))
        _ = try await queue.enqueue([Kit.job("late", priority: .low)])
        let got = try await waiter.value
        #expect(got.map(\.job.id.rawValue) == ["late"])
        #expect(got.first.map { StreamTag.parse($0.tag)?.lane } == StreamLane(.low))
    }

    @Test("A waiting reserve wakes when a delayed job becomes due, with nobody else moving it")
    func wokenByDueJob() async throws {
        let (client, queue) = try Self.queue("due")
        defer { client.close() }
        let due = Timestamp.now().adding(.milliseconds(700))
        _ = try await queue.enqueue([Kit.job("soon", notBefore: due)])
        let got = try await queue.reserve(consumer: "w1", max: 1, wait: .seconds(20))
        #expect(got.map(\.job.id.rawValue) == ["soon"])
        #expect(Timestamp.now() >= due)
    }

    @Test("A waiting reserve returns empty once its wait is over, and early when its task is cancelled")
    func waitEndsOrIsCancelled() async throws {
        let (client, queue) = try Self.queue("cancel")
        defer { client.close() }
        let start = ContinuousClock.now
        #expect(try await queue.reserve(consumer: "w1", max: 1, wait: .milliseconds(400)).isEmpty)
        #expect(ContinuousClock.now - start >= .milliseconds(400))
        let waiter = Task { try await queue.reserve(consumer: "w1", max: 1, wait: .seconds(60)) }
        try await Task.sleep(for: .milliseconds(200))
        waiter.cancel()
        #expect(try await waiter.value.isEmpty)
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test("Four consumers reserving 600 jobs at once each get distinct jobs, and every job ends exactly once")
    func concurrentConsumers() async throws {
        let (client, queue) = try Self.queue("many")
        defer { client.close() }
        let count = 600
        _ = try await queue.enqueue((0..<count).map { Kit.job("c\($0)", priority: JobPriority.allCases[$0 % 3]) })
        let taken = try await withThrowingTaskGroup(of: [JobID].self) { group in
            for index in 0..<4 {
                group.addTask {
                    var mine: [JobID] = []
                    while true {
                        let page = try await queue.reserve(consumer: "w\(index)", max: 7, wait: .zero)
                        if page.isEmpty { return mine }
                        for delivery in page {
                            #expect(try await queue.acknowledge(delivery, outcome: .succeeded(QueueContractKit.result)))
                            mine.append(delivery.job.id)
                        }
                    }
                }
            }
            return try await group.reduce(into: [JobID]()) { $0 += $1 }
        }
        #expect(taken.count == count)
        #expect(Set(taken).count == count)
        let terminal = try await QueueContractKit.terminalEvents(queue)
        #expect(terminal.count == count && terminal.values.allSatisfy { $0.count == 1 })
        #expect(try await queue.batchProgress("b1") == BatchProgress(total: count, succeeded: count))
    }
}

/// Paths of `reserve` that timing alone rarely reaches, driven directly.
@Suite("RedisStreamsQueue delivery edge cases")
struct RedisStreamsQueueDeliveryTests {
    typealias Kit = StreamsTestKit

    @Test("Entries a blocking read returns beyond max go back to their stream unused, for the next consumer")
    func overflowIsHandedBack() async throws {
        let client = try Kit.client(try Kit.sharedServer.get())
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("overflow"))
        _ = try await queue.enqueue([Kit.job("o1"), Kit.job("o2"), Kit.job("o3")])
        // What XREADGROUP … BLOCK answers when entries were already there: more than asked for.
        let reply = try await client.command([
            "XREADGROUP", "GROUP", "workers", "w1", "COUNT", "3", "STREAMS",
            queue.keys.stream(.normal), ">",
        ])
        let read = try StreamReplies.streams(reply).flatMap(\.entries).map {
            RedisStreamsQueue.ReadEntry(lane: StreamLane(.normal), entry: $0)
        }
        #expect(read.count == 3)
        let delivered = try await queue.deliver(read, to: "w1", max: 1)
        #expect(delivered.map(\.job.id.rawValue) == ["o1"])
        let counts = try await queue.counts()
        #expect(counts.pending == 1 && counts.ready[.normal] == 2)
        let rest = try await queue.reserve(consumer: "w2", max: 5, wait: .zero)
        #expect(rest.map(\.job.id.rawValue) == ["o2", "o3"])
        #expect(rest.allSatisfy { $0.deliveryCount == 1 && $0.attempt == 1 })
        #expect(try await QueueContractKit.allEvents(queue).map(\.type) == [.batchEnqueued])
    }

    @Test("A worker removed after finishing its jobs leaves the consumer groups; one still holding a job stays in them")
    func removedWorkerLeavesGroups() async throws {
        let client = try Kit.client(try Kit.sharedServer.get())
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("forget"))
        _ = try await queue.enqueue([Kit.job("f1"), Kit.job("f2")])
        let done = try #require(try await queue.reserve(consumer: "idle", max: 1, wait: .zero).first)
        #expect(try await queue.acknowledge(done, outcome: .succeeded(QueueContractKit.result)))
        _ = try await queue.reserve(consumer: "busy", max: 1, wait: .zero)
        func consumers() async throws -> [String] {
            let list = try await client.command(["XINFO", "CONSUMERS", queue.keys.stream(.normal), "workers"]).array ?? []
            return list.compactMap { $0.array?[1].string }.sorted()
        }
        #expect(try await consumers() == ["busy", "idle"])
        try await queue.removeWorker(named: "idle")
        try await queue.removeWorker(named: "busy")
        #expect(try await consumers() == ["busy"])
        #expect(try await queue.counts().pending == 1)
    }
}
