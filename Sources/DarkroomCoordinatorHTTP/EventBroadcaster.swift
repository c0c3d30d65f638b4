import DarkroomQueue
import DarkroomSystem
import Logging
import ServiceLifecycle
import Synchronization

/// One reader of the event stream shared out to every `/events` client.
///
/// The reader follows the stream from its newest event and hands each event to every subscriber's
/// bounded buffer without waiting: a subscriber whose buffer is full is finished (marked
/// `fellBehind`) and dropped, so one stalled browser never slows the reader, the other clients or
/// the coordinator. A dropped client resumes with `Last-Event-ID`. One reader, not one per client,
/// also keeps blocking Redis reads to one connection however many clients there are.
final class EventBroadcaster: Sendable {
    /// What a subscriber receives.
    enum Item: Sendable {
        case event(EventEnvelope)
        /// Time for a keep-alive comment (from the subscriber's own timer).
        case heartbeat
    }

    /// One client's feed. Dropping it (or `cancel()`) unsubscribes.
    final class Subscription: Sendable {
        let items: AsyncStream<Item>
        let continuation: AsyncStream<Item>.Continuation
        /// Set when the buffer overflowed and the feed was finished for that reason.
        let fellBehind = Atomic<Bool>(false)

        init(bufferSize: Int) {
            (items, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingOldest(bufferSize))
        }

        /// Offers an item without waiting; finishes the feed when the buffer is full.
        func offer(_ item: Item) -> Bool {
            if case .dropped = continuation.yield(item) {
                fellBehind.store(true, ordering: .relaxed)
                continuation.finish()
                return false
            }
            return true
        }

        func cancel() { continuation.finish() }
    }

    private struct State {
        var subscribers: [Int: Subscription] = [:]
        var nextID = 0
        var stopped = false
    }

    private let queue: any JobQueueDriver
    private let bufferSize: Int
    private let pollWait: Duration
    private let logger: Logger
    private let state = Locked(State())

    init(queue: any JobQueueDriver, bufferSize: Int, pollWait: Duration = .seconds(1), logger: Logger) {
        self.queue = queue
        self.bufferSize = max(bufferSize, 1)
        self.pollWait = pollWait
        self.logger = logger
    }

    /// A new feed of the events the reader reads from now on (finished at once when stopped),
    /// holding up to `bufferSize` items (the broadcaster's own bound by default).
    func subscribe(bufferSize: Int? = nil) -> Subscription {
        let subscription = Subscription(bufferSize: max(bufferSize ?? self.bufferSize, 1))
        let id: Int? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = subscription
            return state.nextID
        }
        guard let id else {
            subscription.cancel()
            return subscription
        }
        subscription.continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return subscription
    }

    /// How many clients follow the stream now.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Reads the stream until graceful shutdown or cancellation, then finishes every feed. A failing
    /// queue is retried with backoff (100 ms doubling to 5 s).
    func run() async {
        await cancelWhenGracefulShutdown {
            var cursor: EventCursor?
            var failures = 0
            while !Task.isCancelled {
                do {
                    if cursor == nil { cursor = try await self.queue.latestEventCursor() }
                    guard let after = cursor else { continue }
                    let page = try await self.queue.readEvents(after: after, limit: 256, wait: self.pollWait)
                    if let last = page.last { cursor = last.cursor }
                    self.deliver(page)
                    failures = 0
                } catch {
                    if Task.isCancelled { break }
                    self.logger.warning("cannot follow the event stream for /events; retrying", metadata: ["error": "\(error)"])
                    failures += 1
                    try? await Task.sleep(for: Backoff.reconnect.delay(forAttempt: failures))
                }
            }
        }
        let subscribers = state.withLock { state in
            state.stopped = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.cancel() }
    }

    private func deliver(_ page: [EventEnvelope]) {
        guard !page.isEmpty else { return }
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers {
            for envelope in page {
                // A full buffer finished the feed: the rest of the page is not for it.
                if !subscriber.offer(.event(envelope)) { break }
            }
        }
    }
}
