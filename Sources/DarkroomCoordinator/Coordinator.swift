import DarkroomQueue
import Logging
import ServiceLifecycle
import Synchronization

/// The coordinator, as a swift-service-lifecycle `Service`: reads the event stream from the event
/// log's checkpoint (from the oldest retained event when the log is new) and appends each batch to
/// the log.
///
/// - A gap — the stream no longer holds the checkpoint's successor, trimmed while the coordinator
///   was away or behind — is written into the log as a gap record and logged as an error.
/// - Graceful shutdown (ServiceLifecycle's, or `shutdownGracefully()`): the batch in hand is
///   written, then `run` returns; a read waiting for events returns within `pollWait`.
/// - A failing queue is retried with backoff (100 ms doubling to 5 s); a failing log ends `run`
///   with its error, since events the log cannot take must not be acknowledged as read.
public final class Coordinator: Service {
    public struct Configuration: Sendable {
        public var eventLog: EventLogConfiguration
        /// The most events read and written (one fsync) at once.
        public var batchSize: Int
        /// How long one read waits for new events.
        public var pollWait: Duration

        public init(eventLog: EventLogConfiguration, batchSize: Int = 1000, pollWait: Duration = .seconds(1)) {
            self.eventLog = eventLog
            self.batchSize = batchSize
            self.pollWait = pollWait
        }
    }

    public let configuration: Configuration
    private let queue: any JobQueueDriver
    private let logger: Logger
    private let stopping = Atomic<Bool>(false)
    /// Folds every event the log takes, after it is written (so metrics never count an event the
    /// log lost).
    public let metrics: CoordinatorMetrics?

    public init(queue: any JobQueueDriver, configuration: Configuration, logger: Logger, metrics: CoordinatorMetrics? = nil) {
        self.queue = queue
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
    }

    /// Begins a graceful shutdown, as a ServiceLifecycle graceful shutdown does.
    public func shutdownGracefully() { stopping.store(true, ordering: .relaxed) }

    public func run() async throws {
        let log = try EventLog(configuration: configuration.eventLog)
        defer { log.close() }
        logger.info(
            "event log open",
            metadata: ["file": "\(log.path)", "checkpoint": "\(log.checkpoint?.rawValue ?? "none")"])
        try await withGracefulShutdownHandler {
            var backoff = Duration.milliseconds(100)
            while !stopping.load(ordering: .relaxed), !Task.isCancelled {
                do {
                    _ = try await appendNextBatch(to: log, wait: configuration.pollWait)
                    backoff = .milliseconds(100)
                } catch let error as JobQueueError where error.code != .invalidCursor {
                    logger.warning("cannot read the event stream; retrying", metadata: ["error": "\(error)"])
                    try? await Task.sleep(for: backoff)
                    backoff = min(backoff * 2, .seconds(5))
                }
            }
        } onGracefulShutdown: {
            self.shutdownGracefully()
        }
        logger.info("coordinator stopped", metadata: ["checkpoint": "\(log.checkpoint?.rawValue ?? "none")"])
    }

    /// Reads one batch after the log's checkpoint (waiting up to `wait` for one), checks it for a
    /// gap and appends it. Returns how many events were appended.
    public func appendNextBatch(to log: EventLog, wait: Duration) async throws -> Int {
        let cursor = log.checkpoint ?? .start
        let batch = try await queue.readEvents(after: cursor, limit: max(configuration.batchSize, 1), wait: wait)
        guard let first = batch.first else {
            metrics?.recordCaughtUp()
            return 0
        }
        var gap: EventGap?
        if let checkpoint = log.checkpoint {
            gap = try await StreamPosition.gap(after: checkpoint, first: first.cursor) {
                try await self.queue.readEvents(after: .start, limit: 1, wait: .zero).first?.cursor
            }
        }
        try log.append(batch, gap: gap)
        metrics?.record(batch)
        if let gap {
            logger.error(
                "the event stream no longer held events after the log's checkpoint; a gap record is in the log",
                metadata: [
                    "after": "\(gap.after)", "before": "\(gap.before)",
                    "missing": "\(gap.missing.map(String.init) ?? "unknown")",
                ])
        }
        return batch.count
    }
}
