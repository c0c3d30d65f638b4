import DarkroomFleetStatus

/// What a lookup found of one job (`FleetClient.detail`, `GET /v1/jobs/{id}`): its latest state,
/// and every attempt's error, oldest first.
public struct JobDetail: Equatable, Sendable {
    public var status: JobStatus
    /// The errors of the job's `failed` (retried or final) and `dead` events; empty when it never
    /// failed or was not found.
    public var errors: JobErrorHistory

    public init(status: JobStatus, errors: JobErrorHistory = JobErrorHistory()) {
        self.status = status
        self.errors = errors
    }
}
