import DarkroomQueue
import DarkroomSystem
import Synchronization
import Testing

@testable import DarkroomEventStream

/// `EventSource` over the in-memory queue: where it starts, what it reports, how much it holds.
/// The queue runs on a `ManualQueueClock` that never moves, so a follower's reads wait for
/// publishes only and nothing depends on real time.
@Suite("EventSource over the in-memory queue")
struct EventSourceTests {
    static func queue(retention: Int = 100_000) -> MemoryQueue {
        MemoryQueue(configuration: JobQueueConfiguration(eventRetention: retention), clock: ManualQueueClock())
    }

    /// Publishes `workerOnline` events named `w<first>`…, one call each so they are separate entries.
    static func publish(_ range: Range<Int>, on queue: MemoryQueue, at time: Timestamp = .now()) async throws {
        try await queue.publish(range.map { JobEvent.workerOnline(worker: "w\($0)", at: time) })
    }

    /// Reads a one-shot source to its end.
    static func all(_ source: EventSource) async throws -> [EventItem] {
        var items: [EventItem] = []
        for try await item in source { items.append(item) }
        return items
    }

    static func workers(_ items: [EventItem]) -> [String] { items.compactMap { $0.envelope?.event.worker } }

    /// Waits (polling, bounded) until `condition` holds; the tests assert states, never durations.
    static func until(_ condition: () -> Bool) async throws {
        for _ in 0..<20_000 where !condition() { try await Task.sleep(for: .milliseconds(1)) }
        #expect(condition())
    }

    static let oneShot = EventSource.Configuration(pageSize: 4, follows: false)

    @Test("Given a cursor, when a source starts after it, then it yields exactly the later events, in order, without a gap")
    func resumeFromCursor() async throws {
        let queue = Self.queue()
        try await Self.publish(0..<10, on: queue)
        let all = try await Self.all(queue.eventSource(configuration: Self.oneShot))
        #expect(Self.workers(all) == (0..<10).map { "w\($0)" })
        let cursor = try #require(all[3].envelope?.cursor)
        let rest = try await Self.all(queue.eventSource(from: .after(cursor), configuration: Self.oneShot))
        #expect(rest.map(\.envelope) == all[4...].map(\.envelope))
    }

    @Test("Given events at two times, when a source starts at the later time, then it yields the events from then on")
    func resumeFromTime() async throws {
        let queue = Self.queue()
        let early = Timestamp(millisecondsSince1970: 1_750_000_000_000)
        let late = early.adding(.seconds(60))
        try await Self.publish(0..<3, on: queue, at: early)
        try await Self.publish(3..<6, on: queue, at: late)
        let items = try await Self.all(queue.eventSource(from: .time(late), configuration: Self.oneShot))
        #expect(items.count == 3)
        #expect(Self.workers(items) == ["w3", "w4", "w5"])
    }

    @Test("Given a cursor the queue trimmed past, then a gap with the exact count of missing events comes before the retained ones")
    func gapCounted() async throws {
        let queue = Self.queue(retention: 8)
        try await Self.publish(0..<2, on: queue)
        let cursor = try #require(try await queue.latestEventCursor())
        try await Self.publish(2..<40, on: queue)
        let retained = try await queue.readEvents(after: .start, limit: 100, wait: .zero)
        let first = try #require(retained.first)
        let items = try await Self.all(queue.eventSource(from: .after(cursor), configuration: Self.oneShot))
        let missing = 40 - 2 - retained.count
        #expect(missing > 0)
        #expect(items.first == .gap(EventGap(after: cursor, before: first.cursor, missing: missing)))
        #expect(items.dropFirst().map(\.envelope) == retained.map(Optional.some))
    }

    @Test("Given back-pressure, when the consumer takes some events and stalls, then the source has read at most one page ahead")
    func backpressureHoldsOnePage() async throws {
        let queue = Self.queue()
        try await Self.publish(0..<1000, on: queue)
        var iterator = queue.eventSource(configuration: EventSource.Configuration(pageSize: 10)).makeAsyncIterator()
        for expected in 0..<25 {
            #expect(try await iterator.next()?.envelope?.event.worker == "w\(expected)")
            #expect(iterator.statistics.buffered <= 10)
        }
        #expect(iterator.statistics.read == 30)
        #expect(iterator.statistics.peak == 10)
        #expect(iterator.statistics.buffered == 5)
    }

    @Test("Given dropOldest(10) and a stalled consumer, then the buffer stays at 10 and every event is delivered or counted as dropped")
    func dropOldestCountsExactly() async throws {
        let queue = Self.queue()
        let limit = 10
        try await Self.publish(0..<1000, on: queue)
        let source = queue.eventSource(configuration: EventSource.Configuration(policy: .dropOldest(limit: limit), pageSize: 64))
        var iterator = source.makeAsyncIterator()
        // The consumer stalls while the reading task takes in all 1000.
        try await Self.until { iterator.statistics.read == 1000 }
        #expect(iterator.statistics.buffered == limit)
        #expect(iterator.statistics.peak == limit)

        var delivered: [EventEnvelope] = []
        var drops: [EventDrop] = []
        func take(_ count: Int) async throws {
            while delivered.count < count {
                switch try await iterator.next() {
                case .event(let envelope)?: delivered.append(envelope)
                case .dropped(let drop)?: drops.append(drop)
                case let other?:
                    Issue.record("unexpected \(other)")
                case nil:
                    Issue.record("the sequence ended")
                    return
                }
            }
        }
        try await take(limit)
        let all = try await queue.readEvents(after: .start, limit: 2000, wait: .zero)
        #expect(drops == [EventDrop(count: 990, after: .start, before: all[990].cursor)])
        #expect(delivered == Array(all[990...]))

        // Stalled again: 500 more arrive, the newest 10 are kept.
        try await Self.publish(1000..<1500, on: queue)
        try await Self.until { iterator.statistics.read == 1500 }
        #expect(iterator.statistics.peak == limit)
        try await take(2 * limit)
        let later = try await queue.readEvents(after: all[999].cursor, limit: 1000, wait: .zero)
        #expect(drops.last == EventDrop(count: 490, after: all[999].cursor, before: later[490].cursor))
        #expect(delivered.count + drops.reduce(0) { $0 + $1.count } == 1500)
        #expect(Self.workers(delivered.map(EventItem.event)) == (990..<1000).map { "w\($0)" } + (1490..<1500).map { "w\($0)" })
    }

    @Test("Given dropOldest and a trimmed cursor, a gap note survives the drops: gap, then the exact drop, then the newest events")
    func dropOldestKeepsGap() async throws {
        let queue = Self.queue(retention: 8)
        try await Self.publish(0..<2, on: queue)
        let cursor = try await queue.latestEventCursor()
        try await Self.publish(2..<40, on: queue)
        let retained = try await queue.readEvents(after: .start, limit: 100, wait: .zero)
        let source = queue.eventSource(
            from: .after(cursor), configuration: EventSource.Configuration(policy: .dropOldest(limit: 3), pageSize: 100, follows: false))
        var iterator = source.makeAsyncIterator()
        try await Self.until { iterator.statistics.readerStopped }
        var items: [EventItem] = []
        while let item = try await iterator.next() { items.append(item) }
        let first = try #require(retained.first)
        let kept = retained.suffix(3)
        #expect(
            items == [
                .gap(EventGap(after: cursor, before: first.cursor, missing: 40 - 2 - retained.count)),
                .dropped(EventDrop(count: retained.count - 3, after: cursor, before: try #require(kept.first).cursor)),
            ] + kept.map(EventItem.event))
    }

    @Test("Given a consumer that keeps up, then dropOldest drops nothing and delivers every event in order")
    func dropOldestWithoutDrops() async throws {
        let queue = Self.queue()
        try await Self.publish(0..<300, on: queue)
        let configuration = EventSource.Configuration(policy: .dropOldest(limit: 1000), pageSize: 50, follows: false)
        let items = try await Self.all(queue.eventSource(configuration: configuration))
        #expect(Self.workers(items) == (0..<300).map { "w\($0)" })
        #expect(items.count == 300)
    }

    @Test("Cancelling the consuming task ends a back-pressure sequence without an error")
    func cancellationEndsPull() async throws {
        let queue = Self.queue()
        try await Self.publish(0..<2, on: queue)
        let source = queue.eventSource(from: .after(try await queue.latestEventCursor()))
        let seen = Atomic<Int>(0)
        let consumer = Task {
            for try await _ in source { seen.add(1, ordering: .relaxed) }
            return true
        }
        try await Self.publish(2..<5, on: queue)
        try await Self.until { seen.load(ordering: .relaxed) == 3 }
        consumer.cancel()
        #expect(try await consumer.value)
    }

    @Test("Given a page half taken, when the consuming task is cancelled, then the next call ends the sequence")
    func cancellationMidPage() async throws {
        let queue = Self.queue()
        try await Self.publish(0..<10, on: queue)
        let took = Atomic<Bool>(false)
        let (gate, _) = AsyncStream<Void>.makeStream()
        let consumer = Task {
            var iterator = queue.eventSource(configuration: EventSource.Configuration(pageSize: 10)).makeAsyncIterator()
            let first = try await iterator.next()
            took.store(true, ordering: .relaxed)
            // Parked until cancelled: an AsyncStream's iteration ends when its task is cancelled.
            for await _ in gate {}
            return (first, try await iterator.next())
        }
        try await Self.until { took.load(ordering: .relaxed) }
        consumer.cancel()
        let (first, second) = try await consumer.value
        #expect(first?.envelope?.event.worker == "w0")
        #expect(second == nil)
    }

    @Test("Cancelling the consuming task ends a dropOldest sequence without an error, and its reading task stops")
    func cancellationEndsDropOldest() async throws {
        let queue = Self.queue()
        try await Self.publish(0..<2, on: queue)
        let iterator = queue.eventSource(
            from: .after(try await queue.latestEventCursor()), configuration: EventSource.Configuration(policy: .dropOldest(limit: 5))
        )
        .makeAsyncIterator()
        let reader = try #require(iterator.drop)
        let seen = Atomic<Int>(0)
        let consumer = Task {
            while try await reader.next() != nil { seen.add(1, ordering: .relaxed) }
            return true
        }
        try await Self.publish(2..<5, on: queue)
        try await Self.until { seen.load(ordering: .relaxed) == 3 }
        #expect(!reader.statistics.readerStopped)
        consumer.cancel()
        #expect(try await consumer.value)
        try await Self.until { reader.statistics.readerStopped }
        #expect(try await reader.next() == nil)
    }

    @Test("Leaving a dropOldest loop early stops its reading task")
    func leavingStopsReader() async throws {
        let queue = Self.queue()
        try await Self.publish(0..<20, on: queue)
        var iterator: EventSource.Iterator? = queue.eventSource(configuration: EventSource.Configuration(policy: .dropOldest(limit: 5)))
            .makeAsyncIterator()
        let buffer = try #require(iterator?.drop?.buffer)
        _ = try await iterator?.next()
        iterator = nil
        try await Self.until { buffer.statistics.readerStopped }
    }

    @Test("A cursor of another driver ends the sequence with invalidCursor, under either policy")
    func invalidCursorEnds() async throws {
        let queue = Self.queue()
        for policy in [EventBufferPolicy.backpressure, .dropOldest(limit: 5)] {
            let source = queue.eventSource(
                from: .after(EventCursor(rawValue: "1700000000000-0")), configuration: EventSource.Configuration(policy: policy))
            await #expect {
                for try await _ in source {}
            } throws: { error in
                (error as? JobQueueError)?.code == .invalidCursor
            }
        }
    }

    @Test("The reconnect backoff starts at 100 ms, doubles, and stays at 5 s")
    func backoff() {
        let backoff = Backoff.reconnect
        #expect((1...8).map { backoff.delay(forAttempt: $0) } == [100, 200, 400, 800, 1600, 3200, 5000, 5000].map(Duration.milliseconds))
    }

    @Test("A status reads as one log line")
    func statusLine() {
        let error = JobQueueError(.unavailable, "Redis connection lost: EOF")
        #expect(
            EventSourceStatus.retrying(error: error, attempt: 2, delay: .milliseconds(200)).description
                == "event stream: read failed (Redis connection lost: EOF); retry 2 in 200 ms")
        #expect(
            EventSourceStatus.recovered(failures: 3, outage: .milliseconds(1500)).description
                == "event stream: reading again after 3 failed attempts over 1500 ms")
    }
}
