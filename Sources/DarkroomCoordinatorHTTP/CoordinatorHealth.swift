import DarkroomCoordinator
import DarkroomQueue

/// What `/healthz` answers: healthy when Redis answers and the checkpoint advanced recently, or
/// there is nothing to read.
public struct HealthReport: Sendable, Hashable, Codable {
    public var healthy: Bool
    /// Whether the queue (Redis) answered.
    public var redis: Bool
    /// The coordinator's checkpoint (stream id), if it has one.
    public var checkpoint: String?
    /// Seconds since the checkpoint last advanced; nil before it first did.
    public var secondsSinceAdvance: Double?
    /// Whether the coordinator has read everything the stream holds.
    public var caughtUp: Bool
    /// Why it is unhealthy, for people; nil when healthy.
    public var reason: String?

    public init(redis: Bool, checkpoint: String?, secondsSinceAdvance: Double?, caughtUp: Bool, staleAfter: Duration) {
        self.redis = redis
        self.checkpoint = checkpoint
        self.secondsSinceAdvance = secondsSinceAdvance
        self.caughtUp = caughtUp
        let stale = Double(staleAfter.components.seconds) + Double(staleAfter.components.attoseconds) / 1e18
        let advancing = secondsSinceAdvance.map { $0 <= stale } ?? false
        if !redis {
            reason = "the queue (Redis) does not answer"
        } else if !caughtUp && !advancing {
            reason = "events wait in the stream and the checkpoint has not advanced for \(Int(stale)) s"
        }
        healthy = reason == nil
    }
}

/// Where `/healthz` gets its inputs. The default, `QueueHealthSource`, asks the queue for its
/// newest event and compares it with the metrics' checkpoint; a coordinator with its own
/// checkpoint in Redis supplies its own.
public protocol CoordinatorHealthSource: Sendable {
    func healthReport(staleAfter: Duration) async -> HealthReport
}

/// Health from the queue and the metrics the coordinator feeds.
public struct QueueHealthSource: CoordinatorHealthSource {
    let queue: any JobQueueDriver
    let metrics: CoordinatorMetrics

    public init(queue: any JobQueueDriver, metrics: CoordinatorMetrics) {
        self.queue = queue
        self.metrics = metrics
    }

    public func healthReport(staleAfter: Duration) async -> HealthReport {
        let latest = try? await queue.latestEventCursor()
        let checkpoint = metrics.snapshot().checkpoint
        let (advancedAt, caughtUpAt) = metrics.progress()
        let now = ContinuousClock.now
        func seconds(_ instant: ContinuousClock.Instant?) -> Double? {
            instant.map {
                let elapsed = (now - $0).components
                return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            }
        }
        // Caught up: the stream is empty, its newest event is the checkpoint, or a read found
        // nothing more recently than the checkpoint went stale.
        let recentlyIdle = seconds(caughtUpAt).map { $0 <= Double(staleAfter.components.seconds) } ?? false
        let caughtUp = latest == .start || (latest != nil && latest?.rawValue == checkpoint) || recentlyIdle
        return HealthReport(
            redis: latest != nil, checkpoint: checkpoint, secondsSinceAdvance: seconds(advancedAt), caughtUp: caughtUp,
            staleAfter: staleAfter)
    }
}
