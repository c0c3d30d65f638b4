import DarkroomEventStream
import DarkroomQueue
import Testing

/// The contract of the event stream: order, paging, waiting and what may be published.
extension JobQueueContract {
    /// Events are read in order after a cursor, in pages; reading after the latest cursor waits and
    /// is woken by a publish; queue-owned event types cannot be published by hand.
    public static func eventsAreReadInOrderAfterACursor(_ make: QueueContractFactory) async throws {
        try await Kit.with(make) { harness, _ in
            let driver = harness.driver
            let now = harness.now()
            _ = try await driver.enqueue([Kit.job("a", at: now)])
            try await driver.publish([
                .workerOnline(worker: "w1", at: now),
                .started(job: Kit.id("a"), batch: "b1", worker: "w1", attempt: 1, at: now),
            ])
            let first = try await driver.readEvents(after: .start, limit: 2, wait: .zero)
            #expect(first.map(\.event.type) == [.batchEnqueued, .workerOnline])
            let rest = try await driver.readEvents(after: try #require(first.last).cursor, limit: 10, wait: .zero)
            #expect(rest.map(\.event.type) == [.started])
            let latest = try await driver.latestEventCursor()
            #expect(latest == rest.last?.cursor)
            #expect(try await driver.readEvents(after: latest, limit: 10, wait: .zero).isEmpty)

            let reader = Task { try await driver.readEvents(after: latest, limit: 10, wait: .seconds(30)) }
            try await driver.publish([.workerOffline(worker: "w1")])
            #expect(try await reader.value.map(\.event.type) == [.workerOffline])

            var sequence = driver.eventSource(from: .beginning).makeAsyncIterator()
            var types: [JobEventType] = []
            for _ in 0..<4 { if let envelope = try await sequence.next()?.envelope { types.append(envelope.event.type) } }
            #expect(types == [.batchEnqueued, .workerOnline, .started, .workerOffline])

            for forbidden in [
                JobEvent.succeeded(job: Kit.id("a"), batch: "b1", worker: "w1", attempt: 1, result: Kit.result),
                JobEvent.batchEnqueued(batch: "b1", count: 1),
            ] {
                await #expect(throws: JobQueueError.self) { try await driver.publish([forbidden]) }
            }
        }
    }
}
