import DarkroomQueue
import DarkroomSystem

/// The event stream as a reactive source over any `JobQueueDriver` — the in-memory queue and
/// Redis behave the same: an `AsyncSequence` of `EventItem`s (events, and in-band notes about
/// events that will not come) that
///
/// - starts from the oldest retained event, the newest, a cursor or a time (`Start`);
/// - survives the queue going away: a transient error (Redis restarting, a dropped connection) is
///   retried with `Backoff.reconnect` (100 ms doubling to 5 s), reported through `onStatus`, and
///   reading resumes strictly after the last event read — stream ids only grow, so the consumer
///   sees no duplicate and, unless the stream was trimmed past that event meanwhile (then an
///   `EventItem.gap` says so), no gap;
/// - is bounded, by `EventBufferPolicy`: `.backpressure` (default) reads a page only when the
///   consumer wants more; `.dropOldest(limit:)` reads ahead into at most `limit` events and
///   reports what it discards (`EventItem.dropped`);
/// - ends when its task is cancelled (or the loop is left), stopping any reading task; with an
///   error that is not transient (`JobQueueError.invalidCursor`), or an outage longer than
///   `outageLimit`; and, when `follows` is off, once it has read everything there is.
///
/// Each iterator reads on its own: two loops over one source read the stream twice.
///
///     for try await item in queue.eventSource(from: .time(since)) {
///         switch item {
///         case .event(let envelope): handle(envelope.event)
///         case .gap(let gap): log("trimmed before \(gap.before)")
///         case .dropped, .idle: break
///         }
///     }
public struct EventSource: AsyncSequence, Sendable {
    public typealias Element = EventItem

    /// Where reading starts.
    public enum Start: Sendable, Hashable {
        /// The oldest event the stream retains.
        case beginning
        /// Only events published after the source starts reading.
        case latest
        /// Events strictly after this cursor (one the same driver handed out).
        case after(EventCursor)
        /// Events published at or after this time (`JobQueueDriver.eventCursor(at:)`).
        case time(Timestamp)
    }

    /// How the source reads, buffers and recovers.
    public struct Configuration: Sendable {
        /// What happens when the consumer is slower than the stream.
        public var policy: EventBufferPolicy
        /// The most events one read asks for (at least 1).
        public var pageSize: Int
        /// How long one read waits for new events when the stream is caught up; also how often
        /// `.idle` notes come when `idleNotices` is on.
        public var pollWait: Duration
        /// Keep waiting for new events (true) or end once everything there is has been read.
        public var follows: Bool
        /// Deliver `.idle(cursor)` whenever a read finds nothing new, so a consumer can do timed
        /// work (re-read counters, check a deadline) without a timer of its own.
        public var idleNotices: Bool
        /// The pause between attempts while the queue is unreachable.
        public var backoff: Backoff
        /// How long an outage is ridden out before its error ends the sequence; nil: forever,
        /// `.zero`: the first failure ends it.
        public var outageLimit: Duration?
        /// Which errors are worth retrying; by default a `DarkroomError` whose `isTransient` is
        /// true (for the drivers, `JobQueueError.unavailable`).
        public var isTransient: @Sendable (any Error) -> Bool
        /// Hears each failed attempt and each recovery. Called from the reading task; keep it quick.
        public var onStatus: (@Sendable (EventSourceStatus) -> Void)?

        public init(
            policy: EventBufferPolicy = .backpressure, pageSize: Int = 256, pollWait: Duration = .seconds(1),
            follows: Bool = true, idleNotices: Bool = false, backoff: Backoff = .reconnect,
            outageLimit: Duration? = nil,
            isTransient: @escaping @Sendable (any Error) -> Bool = EventSource.isTransientError,
            onStatus: (@Sendable (EventSourceStatus) -> Void)? = nil
        ) {
            self.policy = policy
            self.pageSize = Swift.max(pageSize, 1)
            self.pollWait = Swift.max(pollWait, .zero)
            self.follows = follows
            self.idleNotices = idleNotices
            self.backoff = backoff
            self.outageLimit = outageLimit
            self.isTransient = isTransient
            self.onStatus = onStatus
        }
    }

    /// The queue read.
    public let driver: any JobQueueDriver
    /// Where reading starts.
    public let start: Start
    public let configuration: Configuration

    public init(driver: any JobQueueDriver, start: Start = .beginning, configuration: Configuration = Configuration()) {
        self.driver = driver
        self.start = start
        self.configuration = configuration
    }

    /// The default `Configuration.isTransient`: a `DarkroomError` that says it may pass.
    public static func isTransientError(_ error: any Error) -> Bool {
        (error as? any DarkroomError)?.isTransient ?? false
    }

    public func makeAsyncIterator() -> Iterator {
        let reader = EventPageReader(driver: driver, start: start, configuration: configuration)
        switch configuration.policy {
        case .backpressure:
            return Iterator(pull: PullReader(reader: reader), drop: nil)
        case .dropOldest(let limit):
            return Iterator(pull: nil, drop: DropOldestReader(reader: reader, limit: limit))
        }
    }

    /// Reads the source's items in order; see `EventSource` for when it ends.
    public struct Iterator: AsyncIteratorProtocol {
        // Exactly one is set, by the policy.
        var pull: PullReader?
        let drop: DropOldestReader?

        /// The next item; nil once the sequence has ended (cancelled, or read to the end when not
        /// following). Throws the error that ended it, once.
        public mutating func next() async throws -> EventItem? {
            if let drop { return try await drop.next() }
            return try await pull?.next()
        }

        /// Buffer figures, for tests: events held now, the most ever held, events read from the queue.
        var statistics: EventSourceStatistics {
            drop?.statistics ?? pull?.statistics ?? EventSourceStatistics()
        }
    }
}

/// How much an iterator holds and has read (tests check the bounds with it).
struct EventSourceStatistics: Sendable, Equatable {
    /// Events read from the queue and not yet handed to the consumer (nor dropped).
    var buffered = 0
    /// The most `buffered` has ever been.
    var peak = 0
    /// Events read from the queue so far.
    var read = 0
    /// The reading task has stopped (`.dropOldest`; always false for `.backpressure`).
    var readerStopped = false
}

extension JobQueueDriver {
    /// The event stream as a reactive source: see `EventSource`.
    public func eventSource(
        from start: EventSource.Start = .beginning,
        configuration: EventSource.Configuration = EventSource.Configuration()
    ) -> EventSource {
        EventSource(driver: self, start: start, configuration: configuration)
    }
}
