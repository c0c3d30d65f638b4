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

extension Backoff {
    /// The pause between attempts while the queue is unreachable: 100 ms, doubled after each
    /// failure, at most 5 s, no jitter (one reader per process).
    public static let reconnect = Backoff(initial: .milliseconds(100), cap: .seconds(5), jitter: .none)
}
