import DarkroomFleetStatus

/// What a lookup found of one job (`FleetClient.detail`, `GET /v1/jobs/{id}`): its latest state,
/// and every attempt's error, oldest first.
public struct JobDetail: Equatable, Sendable {
    public var status: JobStatus
    /// The errors of the job's `failed` (retried or final) and `dead` events; empty when it never
    /// failed or was not found.
    public var errors: JobErrorHistory
    /// Set when the job has ended and only its finished record was left to answer from (its
    /// terminal event was trimmed from the stream, `JobProjection.trimmed`): the status's event
    /// then holds only the record's fields.
    public var trimmed: JobProjection.Trimmed?

    public init(status: JobStatus, errors: JobErrorHistory = JobErrorHistory(), trimmed: JobProjection.Trimmed? = nil) {
        self.status = status
        self.errors = errors
        self.trimmed = trimmed
    }
}
