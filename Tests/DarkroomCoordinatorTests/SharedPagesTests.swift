import DarkroomQueue
import DarkroomSystem
import DarkroomTestSupport
import Synchronization
import Testing

@testable import DarkroomCoordinator

@Suite("The readers' shared pages")
struct SharedPagesTests {
    /// A `MemoryQueue` that counts the event reads that returned events.
    final class CountingQueue: JobQueueDriver {
        let inner: MemoryQueue
        private let reads = Atomic<Int>(0)

        init(events count: Int) async throws {
            inner = MemoryQueue(configuration: JobQueueConfiguration(eventRetention: 1_000_000))
            try await inner.publish((0..<count).map { JobEvent.workerOnline(worker: "w\($0)") })
        }

        /// Reads that returned at least one event.
        var pagesRead: Int { reads.load(ordering: .sequentiallyConsistent) }

        var configuration: JobQueueConfiguration { inner.configuration }
        func enqueue(_ jobs: [Job]) async throws -> Int { try await inner.enqueue(jobs) }
        func reserve(consumer: String, max: Int, wait: Duration, offering: Set<String>) async throws -> [JobDelivery] {
            try await inner.reserve(consumer: consumer, max: max, wait: wait, offering: offering)
        }
        func acknowledge(_ delivery: JobDelivery, outcome: JobOutcome) async throws -> Bool {
            try await inner.acknowledge(delivery, outcome: outcome)
        }
        func retry(_ delivery: JobDelivery, after: Duration, error: JobError) async throws -> RetryDisposition {
            try await inner.retry(delivery, after: after, error: error)
        }
        func deadLetter(_ delivery: JobDelivery, error: JobError) async throws -> Bool {
            try await inner.deadLetter(delivery, error: error)
        }
        func extendLease(_ delivery: JobDelivery) async throws -> Bool { try await inner.extendLease(delivery) }
        func reclaimStale(consumer: String, olderThan: Duration, max: Int, offering: Set<String>) async throws -> ReclaimResult {
            try await inner.reclaimStale(consumer: consumer, olderThan: olderThan, max: max, offering: offering)
        }
        func publish(_ events: [JobEvent]) async throws { try await inner.publish(events) }
        func readEvents(after cursor: EventCursor, limit: Int, wait: Duration) async throws -> [EventEnvelope] {
            let page = try await inner.readEvents(after: cursor, limit: limit, wait: wait)
            if !page.isEmpty { reads.add(1, ordering: .sequentiallyConsistent) }
            return page
        }
        func latestEventCursor() async throws -> EventCursor { try await inner.latestEventCursor() }
        func eventCursor(at time: Timestamp) async throws -> EventCursor { try await inner.eventCursor(at: time) }
        func release(_ delivery: JobDelivery, after: Duration) async throws -> Bool { try await inner.release(delivery, after: after) }
    }

    /// Reads page after page from `start` until a read finds nothing (or `limit` events are seen);
    /// returns the events' cursors.
    static func walk(
        _ pages: SharedPages, as reader: String, from start: EventCursor = .start, pause: Duration = .zero, upTo limit: Int = .max,
        taken: (@Sendable () -> Void)? = nil
    ) async throws -> [String] {
        var cursor = start
        var seen: [String] = []
        while seen.count < limit {
            let page = try await pages.page(after: cursor, for: reader)
            guard let last = page.last else { return seen }
            seen += page.map(\.cursor.rawValue)
            cursor = last.cursor
            taken?()
            if pause > .zero { try await Task.sleep(for: pause) }
        }
        return seen
    }

    /// How many pages the faster reader took beyond the slower one, at most.
    final class LeadTracker: Sendable {
        private let state = Locked<(fast: Int, slow: Int, largest: Int)>((0, 0, 0))

        func fastTook() {
            state.withLock {
                $0.fast += 1
                $0.largest = max($0.largest, $0.fast - $0.slow)
            }
        }

        func slowTook() { state.withLock { $0.slow += 1 } }

        var largest: Int { state.withLock { $0.largest } }
    }

    static func cursors(_ range: ClosedRange<Int>) -> [String] { range.map(String.init) }

    @Test("Given two readers walking the stream together, then each sees every event once, in order, and each page is read once")
    func readOnce() async throws {
        let queue = try await CountingQueue(events: 10_000)
        let pages = SharedPages(queue: queue, pageSize: 1000, wait: .zero)
        defer { pages.close() }
        async let projections = Self.walk(pages, as: "projections")
        async let log = Self.walk(pages, as: "event log")
        let (first, second) = try await (projections, log)
        #expect(first == Self.cursors(1...10_000))
        #expect(second == Self.cursors(1...10_000))
        #expect(queue.pagesRead == 10)
    }

    @Test("Given a reader starting inside a page the other has read, then it takes the rest of that page and the same pages after it")
    func joinsMidPage() async throws {
        let queue = try await CountingQueue(events: 5000)
        let pages = SharedPages(queue: queue, pageSize: 1000, wait: .zero)
        defer { pages.close() }
        #expect(try await Self.walk(pages, as: "projections") == Self.cursors(1...5000))
        #expect(try await Self.walk(pages, as: "event log", from: EventCursor(rawValue: "1500")) == Self.cursors(1501...5000))
        #expect(queue.pagesRead == 5)
    }

    @Test("Given a slower reader, then the faster one runs at most the cache's capacity ahead and no page is read twice")
    func boundedLead() async throws {
        let queue = try await CountingQueue(events: 20_000)
        let pages = SharedPages(queue: queue, pageSize: 1000, wait: .zero, capacity: 3, stallAfter: .seconds(60))
        defer { pages.close() }
        let lead = LeadTracker()
        async let fast = Self.walk(pages, as: "event log") { lead.fastTook() }
        async let slow = Self.walk(pages, as: "projections", pause: .milliseconds(5)) { lead.slowTook() }
        let (fastSeen, slowSeen) = try await (fast, slow)
        #expect(fastSeen == Self.cursors(1...20_000))
        #expect(slowSeen == Self.cursors(1...20_000))
        #expect(queue.pagesRead == 20)
        // Three cached pages and the one being read ahead.
        #expect(lead.largest <= 4)
    }

    @Test("Given a reader that stopped asking, then the other is not held back, and the first reads for itself when it returns")
    func stalledReaderNotWaitedFor() async throws {
        let queue = try await CountingQueue(events: 10_000)
        let pages = SharedPages(queue: queue, pageSize: 1000, wait: .zero, capacity: 2, stallAfter: .milliseconds(50))
        defer { pages.close() }
        #expect(try await pages.page(after: .start, for: "projections").count == 1000)
        #expect(try await Self.walk(pages, as: "event log") == Self.cursors(1...10_000))
        #expect(try await Self.walk(pages, as: "projections", from: EventCursor(rawValue: "1000")) == Self.cursors(1001...10_000))
    }
}

// Real time: the gather window must outlast five publishes, which a loaded parallel pass can stall.
@Suite("The readers' shared pages, once caught up", .realTime)
struct SharedPagesGatherTests {
    @Test("Given readers that caught up, when events arrive one by one, then the next page gathers them into one read")
    func gathersAfterShortPage() async throws {
        let queue = try await SharedPagesTests.CountingQueue(events: 1)
        let pages = SharedPages(queue: queue, pageSize: 1000, wait: .seconds(5), gather: .milliseconds(1500))
        defer { pages.close() }
        let first = try await pages.page(after: .start, for: "projections")
        #expect(first.count == 1)
        // The read after that short page is waiting out the gather window: events published one
        // at a time meanwhile come back together.
        for index in 0..<5 {
            try await queue.publish([JobEvent.workerOnline(worker: "late\(index)")])
            try await Task.sleep(for: .milliseconds(10))
        }
        let second = try await pages.page(after: first[0].cursor, for: "projections")
        #expect(second.count == 5)
        #expect(queue.pagesRead == 2)
    }

    @Test("Given a full page, then the read after it does not wait for the gather window")
    func fullPagesDoNotGather() async throws {
        let queue = try await SharedPagesTests.CountingQueue(events: 30)
        let pages = SharedPages(queue: queue, pageSize: 10, wait: .zero, gather: .seconds(3600))
        defer { pages.close() }
        // Three full pages in a row: a wait of an hour after any of them would never return here.
        #expect(try await SharedPagesTests.walk(pages, as: "projections", upTo: 30) == SharedPagesTests.cursors(1...30))
    }
}
