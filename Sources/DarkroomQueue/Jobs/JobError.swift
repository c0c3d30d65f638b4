/// Why an attempt at a job failed: a stable `code` for scripts and retry decisions, and a one-line
/// `message` for people. Carried by `failed` and `dead` events, kept on a retried job as its
/// `lastError`, and stored with each dead letter.
public struct JobError: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A stable, dotted, lowercase code such as `source.not-found` or `queue.stalled`.
    public var code: String
    /// What went wrong and, where possible, what to do about it. At most 2,000 characters.
    public var message: String
    /// For a job with renditions: the renditions whose outputs this attempt stored before it
    /// failed (in the job's order), so a caller knows which files exist; a retry finds them in the
    /// cache. Nil for other jobs (and in events of older workers).
    public var written: [String]?

    public init(code: String, message: String, written: [String]? = nil) {
        self.code = code
        self.written = written
        // Events are small records in a trimmed stream; a huge message must not bloat them.
        self.message = message.count > 2000 ? String(message.prefix(1999)) + "…" : message
    }

    public var description: String { "\(code): \(message)" }
}

extension JobError {
    /// The codes a driver writes itself, for failures no thrown error describes.
    public enum DriverCode: String, CaseIterable, Sendable {
        /// A job was delivered too often without any worker finishing it.
        case stalled = "queue.stalled"
        /// A record's `version` no worker that saw it understood.
        case unknownVersion = "queue.unknown-version"
        /// An entry that is not a job record at all.
        case garbage = "queue.garbage"
        /// A dead letter whose stored error cannot be read.
        case unknown = "queue.unknown"
    }

    /// The code a driver uses when a job was delivered too often without any worker finishing it.
    public static let stalledCode = DriverCode.stalled.rawValue
    /// The code for a record whose `version` no worker that saw it understood.
    public static let unknownVersionCode = DriverCode.unknownVersion.rawValue
    /// The code for an entry that is not a job record at all.
    public static let garbageCode = DriverCode.garbage.rawValue

    /// The error recorded when a job exceeded `maxAttempts` deliveries without an outcome.
    public static func stalled(attempt: Int, deliveries: Int, previous: JobError?) -> JobError {
        var message = "attempt \(attempt) was delivered \(deliveries) times and no worker finished it (workers died or exceeded the visibility timeout)"
        if let previous { message += "; the last reported error was \(previous)" }
        return JobError(code: stalledCode, message: message)
    }

    /// The error recorded when a record's `version` stayed unknown for `maxAttempts` deliveries.
    public static func unknownVersion(_ version: Int, deliveries: Int) -> JobError {
        JobError(
            code: unknownVersionCode,
            message:
                "job record version \(version) is newer than any worker that saw it (\(deliveries) deliveries); upgrade the workers, then `darkroom dlq retry`")
    }

    /// The error recorded for an entry that is not a job record.
    public static func garbage(_ reason: String) -> JobError {
        JobError(code: garbageCode, message: "not a Darkroom job record: \(reason)")
    }
}
