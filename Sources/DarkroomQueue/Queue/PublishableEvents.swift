extension JobQueueDriver {
    /// Checks that `events` may go through `publish`: each is well formed, and none is one the
    /// queue operations publish themselves (terminal events, `failed`, `batchEnqueued`), which must
    /// stay atomic with the state change they report. Every driver calls this before publishing
    /// anything, so a bad event in the list publishes none.
    public static func checkPublishable(_ events: [JobEvent]) throws(JobQueueError) {
        for event in events {
            if let problem = event.problem { throw JobQueueError(.invalidArgument, "event \(event.type.rawValue): \(problem)") }
            if event.isTerminal || event.type == .batchEnqueued || event.type == .failed {
                throw JobQueueError(
                    .invalidArgument,
                    "\(event.type.rawValue) events are published by the queue operations, not by publish")
            }
        }
    }
}
