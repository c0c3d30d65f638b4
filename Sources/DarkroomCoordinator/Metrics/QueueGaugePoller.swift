import DarkroomQueue
import Logging
import ServiceLifecycle

/// Sets the metrics' queue gauges from `counts()` every `interval`, as a `Service` beside the
/// coordinator: depth and lag (the oldest ready job's age) per priority, delayed, in flight and
/// dead letters.
public struct QueueGaugePoller: Service {
    let queue: any ProgressReportingQueue
    let metrics: CoordinatorMetrics
    let interval: Duration
    let logger: Logger

    public init(queue: any ProgressReportingQueue, metrics: CoordinatorMetrics, interval: Duration = .seconds(5), logger: Logger) {
        self.queue = queue
        self.metrics = metrics
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    metrics.updateQueueGauges(try await queue.counts())
                } catch {
                    logger.debug("cannot poll the queue's counts", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
