import DarkroomQueue

/// What the event stream says about one job (`FleetClient.lookup`, `darkroom get`).
public enum JobStatus: Equatable, Sendable {
    /// No event names the job: unknown, still queued (queued jobs have no job events yet), or its
    /// events were trimmed from the stream.
    case notFound
    /// A worker started it and it has not ended.
    case running(JobEvent)
    /// An attempt failed and it will be retried.
    case retrying(JobEvent)
    /// It ended: `succeeded`, `failed` (final), `dead` or `cancelled`.
    case ended(JobEvent)
}
