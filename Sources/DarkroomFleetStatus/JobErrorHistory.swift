import DarkroomQueue

/// One attempt's error: what a `failed` (retried or final) or `dead` event of the job said.
public struct JobAttemptError: Sendable, Hashable, Encodable {
    /// The attempt that failed (1-based, counting retries and redeliveries).
    public var attempt: Int
    public var error: JobError
    /// When the failure's event happened.
    public var at: Timestamp

    public init(attempt: Int, error: JobError, at: Timestamp) {
        self.attempt = attempt
        self.error = error
        self.at = at
    }

    /// The error of a `failed` or `dead` event; nil for any other event.
    public init?(_ event: JobEvent) {
        guard event.type == .failed || event.type == .dead, let error = event.error else { return nil }
        self.init(attempt: event.attempt ?? 1, error: error, at: event.at)
    }

    private enum Key: String, CodingKey { case attempt, code, message, at }

    /// Flat, as the job view lists it: `{attempt, code, message, at}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(attempt, forKey: .attempt)
        try container.encode(error.code, forKey: .code)
        try container.encode(error.message, forKey: .message)
        try container.encode(at, forKey: .at)
    }
}

/// A job's errors, oldest first, every attempt's: the coordinator's projection keeps them beside
/// the job's latest event (`JobProjection.errors`), and a lookup without a coordinator gathers
/// them from the events it scans, so both answer alike.
///
/// Only the newest `capacity` are kept: a job retried without end must not grow without bound.
/// Older ones are dropped and counted in `dropped`.
public struct JobErrorHistory: Sendable, Hashable {
    /// How many errors are kept. The projection script (`CoordinatorScripts.apply`) keeps as many.
    public static let capacity = 20

    /// The kept errors, oldest first.
    public private(set) var errors: [JobAttemptError]
    /// How many older errors were dropped.
    public private(set) var dropped: Int

    public init(errors: [JobAttemptError] = [], dropped: Int = 0) {
        self.errors = []
        self.dropped = max(dropped, 0)
        for error in errors { append(error) }
    }

    /// Adds `error` as the newest, dropping the oldest past `capacity`.
    public mutating func append(_ error: JobAttemptError) {
        errors.append(error)
        if errors.count > Self.capacity {
            errors.removeFirst(errors.count - Self.capacity)
            dropped += 1
        }
    }

    /// Adds the error of `event` when it is a `failed` or `dead` event.
    public mutating func record(_ event: JobEvent) {
        if let error = JobAttemptError(event) { append(error) }
    }
}
