import DarkroomSystem

/// What an `EventSource` reports about its connection to the queue, through
/// `EventSource.Configuration.onStatus`. The library never prints: a program logs these as it likes.
public enum EventSourceStatus: Sendable {
    /// A read failed with a transient error (the queue is unreachable or restarting); the source
    /// tries again after `delay`. `attempt` counts the failures of this outage, from 1.
    case retrying(error: any Error, attempt: Int, delay: Duration)
    /// A read succeeded after `failures` failed ones, `outage` after the first failure; reading
    /// resumes strictly after the last event read before the outage.
    case recovered(failures: Int, outage: Duration)
}

extension EventSourceStatus: CustomStringConvertible {
    /// One line for a log: `event stream: read failed (…); retry 2 in 200 ms`.
    public var description: String {
        switch self {
        case .retrying(let error, let attempt, let delay):
            return "event stream: read failed (\(error)); retry \(attempt) in \(delay.wholeMilliseconds) ms"
        case .recovered(let failures, let outage):
            return "event stream: reading again after \(failures) failed attempt\(failures == 1 ? "" : "s") over \(outage.wholeMilliseconds) ms"
        }
    }
}

/// The pause between attempts while the queue is unreachable: `initial`, doubled after each
/// failure, at most `maximum`.
public struct ReconnectBackoff: Sendable, Hashable {
    public var initial: Duration
    public var maximum: Duration

    public init(initial: Duration = .milliseconds(100), maximum: Duration = .seconds(5)) {
        self.initial = initial
        self.maximum = Swift.max(maximum, initial)
    }

    /// The delay after failure number `attempt` (1 is the first).
    public func delay(afterAttempt attempt: Int) -> Duration {
        var delay = initial
        for _ in 1..<Swift.max(attempt, 1) {
            delay *= 2
            if delay >= maximum { return maximum }
        }
        return Swift.min(delay, maximum)
    }
}
