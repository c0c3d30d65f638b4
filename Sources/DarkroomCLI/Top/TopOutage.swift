import DarkroomQueue

/// What `darkroom top` knows about its connection to Redis: when it last read the fleet, and since
/// when reads fail. The screen keeps its last good read but says plainly that it is stale, so an
/// operator never mistakes a frozen picture for a quiet fleet.
struct TopOutage: Sendable, Equatable {
    /// When the last read of events or status succeeded.
    private(set) var lastGoodRead: Timestamp?
    /// When the current run of failed reads began; nil while Redis answers.
    private(set) var since: Timestamp?
    /// The latest failure's description.
    private(set) var reason: String?

    var isOngoing: Bool { since != nil }

    /// A read succeeded: the outage, if any, is over.
    mutating func succeeded(at now: Timestamp) {
        lastGoodRead = now
        since = nil
        reason = nil
    }

    /// A read failed because Redis is unreachable.
    mutating func failed(_ error: any Error, at now: Timestamp) {
        if since == nil { since = now }
        reason = String(describing: error)
    }

    /// The line that says so, or nil while Redis answers: when it began, the time of the last good
    /// read (what the screen still shows), and that `top` keeps retrying.
    func line(now: Timestamp) -> String? {
        guard let since else { return nil }
        let seconds = max(now.millisecondsSince1970 - since.millisecondsSince1970, 0) / 1000
        let last = lastGoodRead.map { "last good read \($0.iso8601)" } ?? "no good read yet"
        return "Redis is unreachable since \(since.iso8601) (\(seconds) s; \(last)); retrying: "
            + EventFormatting.sanitized(reason ?? "")
    }
}
