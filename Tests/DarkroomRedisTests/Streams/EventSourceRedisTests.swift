import DarkroomEventStream
import DarkroomQueue
import DarkroomTestSupport
import Testing

@testable import DarkroomRedis

/// `EventSource` over Redis where no real time is involved: trimming and bad cursors.
@Suite("EventSource over Redis: gaps and cursors")
struct EventSourceRedisTests {
    typealias Kit = StreamsTestKit

    @Test("Given the stream trimmed past a cursor, a source resumed there reports a gap without a count, then the retained events")
    func trimmedGap() async throws {
        let server = try Kit.sharedServer.get()
        let client = try Kit.client(server)
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, configuration: JobQueueConfiguration(eventRetention: 10), keyPrefix: Kit.prefix("gap"))
        try await queue.publish((0..<2).map { JobEvent.workerOnline(worker: "w\($0)") })
        let cursor = try await queue.latestEventCursor()
        // Enough events that approximate trimming (whole stream nodes) drops the cursor's entry.
        for start in stride(from: 2, to: 602, by: 100) {
            try await queue.publish((start..<start + 100).map { JobEvent.workerOnline(worker: "w\($0)") })
        }
        let retained = try await queue.readEvents(after: .start, limit: 1000, wait: .zero)
        let first = try #require(retained.first)
        var items: [EventItem] = []
        for try await item in queue.eventSource(from: .after(cursor), configuration: EventSource.Configuration(follows: false)) {
            items.append(item)
        }
        #expect(items.first == .gap(EventGap(after: cursor, before: first.cursor, missing: nil)))
        #expect(items.dropFirst().map(\.envelope) == retained.map(Optional.some))
    }

    @Test("A cursor the stream holds gives no gap; a cursor of the in-memory queue ends the sequence with invalidCursor")
    func cursors() async throws {
        let server = try Kit.sharedServer.get()
        let client = try Kit.client(server)
        defer { client.close() }
        let queue = RedisStreamsQueue(client: client, keyPrefix: Kit.prefix("cur"))
        try await queue.publish((0..<5).map { JobEvent.workerOnline(worker: "w\($0)") })
        let all = try await queue.readEvents(after: .start, limit: 10, wait: .zero)
        var items: [EventItem] = []
        for try await item in queue.eventSource(from: .after(all[1].cursor), configuration: EventSource.Configuration(follows: false)) {
            items.append(item)
        }
        #expect(items == all[2...].map(EventItem.event))
        await #expect {
            for try await _ in queue.eventSource(from: .after(EventCursor(rawValue: "12"))) {}
        } throws: { error in
            (error as? JobQueueError)?.code == .invalidCursor
        }
    }
}
