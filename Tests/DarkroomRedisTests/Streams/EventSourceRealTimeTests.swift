import DarkroomEventStream
import DarkroomQueue
import DarkroomSystem
import DarkroomTestSupport
import Synchronization
import Testing

@testable import DarkroomRedis

/// `EventSource` over a real redis-server that restarts, and over Redis's own clock (stream ids
/// are its milliseconds). Real time: these run in the serial pass.
@Suite("EventSource over Redis: restarts and times", .realTime)
struct EventSourceRealTimeTests {
    typealias Kit = StreamsTestKit

    /// Waits (polling, bounded) until `condition` holds; nothing here asserts a duration.
    static func until(_ condition: () -> Bool) async throws {
        for _ in 0..<3_000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }

    static func workerEvents(_ range: Range<Int>) -> [JobEvent] { range.map { JobEvent.workerOnline(worker: "w\($0)") } }

    @Test(
        "Given AOF persistence, events published before and after a Redis restart reach a follower exactly once, in order",
        arguments: [EventBufferPolicy.backpressure, .dropOldest(limit: 1000)])
    func restartExactlyOnce(policy: EventBufferPolicy) async throws {
        let (server, client, queue) = try Kit.isolated(appendOnly: true)
        defer {
            client.close()
            server.stop()
        }
        try await queue.publish(Self.workerEvents(0..<5))
        let received = Locked<[EventEnvelope]>([])
        let notes = Locked<[EventItem]>([])
        let retries = Atomic<Int>(0)
        let recoveries = Atomic<Int>(0)
        let configuration = EventSource.Configuration(
            policy: policy, pageSize: 2, pollWait: .milliseconds(200),
            onStatus: { status in
                switch status {
                case .retrying: retries.add(1, ordering: .relaxed)
                case .recovered: recoveries.add(1, ordering: .relaxed)
                }
            })
        let source = queue.eventSource(from: .beginning, configuration: configuration)
        let consumer = Task {
            for try await item in source {
                if let envelope = item.envelope {
                    if received.withLock({
                        $0.append(envelope)
                        return $0.count
                    }) == 10 {
                        return
                    }
                } else if case .idle = item {
                } else {
                    notes.withLock { $0.append(item) }
                }
            }
        }
        try await Self.until { received.withLock { $0.count } == 5 }

        server.stop()
        // The follower is in a blocking read: it loses its connection and starts retrying.
        try await Self.until { retries.load(ordering: .relaxed) > 0 }
        try server.start()
        // A fresh client publishes: a pooled connection to the old process could fail mid-XADD
        // and leave it unknown whether the event was added.
        let publisherClient = try Kit.client(server)
        defer { publisherClient.close() }
        let publisher = RedisStreamsQueue(client: publisherClient, configuration: queue.configuration, keyPrefix: "iso")
        try await publisher.publish(Self.workerEvents(5..<10))
        try await consumer.value

        let envelopes = received.withLock { $0 }
        #expect(envelopes.compactMap(\.event.worker) == (0..<10).map { "w\($0)" })
        #expect(Set(envelopes.map(\.cursor)).count == 10)
        #expect(envelopes == (try await publisher.readEvents(after: .start, limit: 100, wait: .zero)))
        #expect(notes.withLock { $0 }.isEmpty)
        #expect(recoveries.load(ordering: .relaxed) == 1)
    }

    @Test("Given events either side of a moment, a source started at that time yields the later ones only")
    func resumeFromTime() async throws {
        let server = try Kit.sharedServer.get()
        let client = try Kit.client(server)
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("time"))
        try await queue.publish(Self.workerEvents(0..<3))
        // Stream ids are Redis's milliseconds: step past the ones used so far, on both sides.
        try await Task.sleep(for: .milliseconds(5))
        let moment = Timestamp.now()
        try await Task.sleep(for: .milliseconds(5))
        try await queue.publish(Self.workerEvents(3..<6))
        var workers: [String] = []
        for try await item in queue.eventSource(from: .time(moment), configuration: EventSource.Configuration(follows: false)) {
            #expect(item.envelope != nil)
            if let worker = item.envelope?.event.worker { workers.append(worker) }
        }
        #expect(workers == ["w3", "w4", "w5"])
    }
}
