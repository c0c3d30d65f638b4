import DarkroomQueue

/// One job of a batch that ended badly, as `wait` reports it.
public struct BatchFailure: Sendable, Equatable, Encodable {
    /// The job id.
    public var job: String
    /// `failed` or `dead`.
    public var type: String
    /// The attempt that ended it, and the worker that ran it (nil when none did).
    public var attempt: Int?
    public var worker: String?
    /// The error's stable code (`source.not-found`, `queue.stalled`, …).
    public var code: String?
    /// The error's human message.
    public var message: String?

    /// The failure `event` reports, or nil when it is not a terminal `failed` or `dead` of a job.
    public init?(_ event: JobEvent) {
        guard event.isTerminal, event.type == .failed || event.type == .dead, let job = event.job else { return nil }
        self.job = job.rawValue
        type = event.type.rawValue
        attempt = event.attempt
        worker = event.worker
        code = event.error?.code
        message = event.error?.message
    }
}
