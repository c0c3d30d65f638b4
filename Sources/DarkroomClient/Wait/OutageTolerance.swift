import DarkroomEventStream
import DarkroomQueue
import DarkroomSystem

/// How a long-running reader (`wait`, `events --follow`) treats a queue that goes away: its
/// `EventSource` retries an outage (a `JobQueueError.unavailable`) for up to `limit` and then
/// fails; a person hears once that the queue was lost and once that it is back.
public enum OutageTolerance {
    /// How long an outage is ridden out before its error is thrown.
    public static let limit: Duration = .seconds(60)

    /// Whether `error` is a driver's report that its backend is out of reach and may come back
    /// (`ErrorSummary.isPassingOutage`; refused credentials are not ridden out).
    public static func isQueueUnavailable(_ error: any Error) -> Bool {
        ErrorSummary(error).isPassingOutage
    }

    /// An `EventSource.Configuration.onStatus` that tells `note` of the first failure of an
    /// outage (not of each retry) and of the recovery.
    public static func notes(limit: Duration = limit, _ note: @escaping @Sendable (String) -> Void) -> @Sendable (EventSourceStatus) -> Void {
        let seconds = Int(limit.components.seconds)
        return { status in
            switch status {
            case .retrying(let error, let attempt, _) where attempt == 1:
                note("lost the queue (\(error)); retrying for up to \(seconds) s")
            case .retrying: break
            case .recovered: note("the queue is reachable again")
            }
        }
    }
}
