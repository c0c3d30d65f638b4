import Foundation

/// The time a queue uses for delays, visibility timeouts and waits. Wall-clock time, because
/// `notBefore` and stream positions are shared across hosts. `ManualQueueClock` lets tests move
/// time by hand.
public protocol QueueClock: Sendable {
    /// The current time.
    func now() -> Timestamp
    /// Returns once `now()` has reached `deadline`; throws `CancellationError` if the task is cancelled first.
    func sleep(until deadline: Timestamp) async throws
}

extension QueueClock {
    /// Returns once `duration` has passed on this clock; throws `CancellationError` if the task is
    /// cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now().adding(duration))
    }
}

/// The system's wall clock.
public struct SystemQueueClock: QueueClock {
    public init() {}

    public func now() -> Timestamp { .now() }

    public func sleep(until deadline: Timestamp) async throws {
        let remaining = deadline.duration(since: now())
        if remaining > .zero { try await Task.sleep(for: remaining) }
    }
}
