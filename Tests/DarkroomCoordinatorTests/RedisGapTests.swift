import DarkroomQueue
import DarkroomRedis
import DarkroomTestSupport
import Foundation
import Logging
import Testing

@testable import DarkroomCoordinator

/// Gap records over a real redis-server, whose `XADD … MAXLEN ~` trims whole stream nodes.
@Suite("Gap records with the Redis driver")
struct RedisGapTests {
    @Test("Given events trimmed from the Redis stream past the log's checkpoint, then a gap record without a count precedes the retained events")
    func trimmedPastCheckpoint() async throws {
        let redis = try RedisTestServer()
        let client = RedisClient(url: try RedisURL(redis.url))
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, configuration: JobQueueConfiguration(eventRetention: 10))
        let scratch = try EventLogTests.Scratch()
        let coordinator = Coordinator(
            queue: queue, configuration: .init(eventLog: scratch.configuration()),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let log = try await EventLog.open(configuration: scratch.configuration())
        try await queue.publish((0..<2).map { JobEvent.workerOnline(worker: "w\($0)") })
        #expect(try await coordinator.appendNextBatch(to: log, wait: .zero) == 2)
        let checkpoint = try #require(log.checkpoint)

        // Enough events that approximate trimming drops whole nodes, the checkpoint's among them.
        for start in stride(from: 2, to: 602, by: 100) {
            try await queue.publish((start..<start + 100).map { JobEvent.workerOnline(worker: "w\($0)") })
        }
        let retained = try await queue.readEvents(after: .start, limit: 1000, wait: .zero)
        #expect(retained.count < 600)
        try await EventLogTests.drain(coordinator, into: log)

        let lines = try scratch.lines(scratch.path)
        #expect(lines.count == 2 + 1 + retained.count)
        let gap = try EventLogTests.record(lines[2])
        #expect(gap["type"] as? String == "gap")
        #expect(gap["after"] as? String == checkpoint.rawValue)
        #expect(gap["before"] as? String == retained.first?.cursor.rawValue)
        #expect(gap["missing"] == nil)
        #expect(try EventLogTests.workers(lines) == ["w0", "w1"] + retained.compactMap(\.event.worker))
    }

    @Test("Given a checkpoint the Redis stream still holds, then no gap record is written")
    func retainedCheckpoint() async throws {
        let redis = try RedisTestServer()
        let client = RedisClient(url: try RedisURL(redis.url))
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client)
        let scratch = try EventLogTests.Scratch()
        let coordinator = Coordinator(
            queue: queue, configuration: .init(eventLog: scratch.configuration(), batchSize: 3),
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let log = try await EventLog.open(configuration: scratch.configuration())
        try await queue.publish((0..<7).map { JobEvent.workerOnline(worker: "w\($0)") })
        try await EventLogTests.drain(coordinator, into: log)
        #expect(try EventLogTests.workers(scratch.lines(scratch.path)) == (0..<7).map { "w\($0)" })
        #expect(try scratch.lines(scratch.path).count == 7)
    }
}
