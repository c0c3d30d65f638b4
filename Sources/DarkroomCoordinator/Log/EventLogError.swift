import DarkroomSystem

/// The event log could not be read, written or rotated; the message names the file.
public struct EventLogError: CodedDarkroomError, Hashable {
    public enum Code: String, CaseIterable, Sendable {
        /// A system call on a log file failed (`errno` in `systemError`).
        case io = "eventlog.io"
        /// The last complete line of a log file is not a record this log writes.
        case corrupt = "eventlog.corrupt"
        /// Another process (a second coordinator) writes this log: it holds `FILE.lock`.
        case locked = "eventlog.locked"
        /// A setting is out of range.
        case invalidConfiguration = "eventlog.invalid-configuration"
    }

    public var code: Code
    public var message: String
    public var errno: Errno?

    public init(_ code: Code, _ message: String, errno: Errno? = nil) {
        self.code = code
        self.message = message
        self.errno = errno
    }

    /// A failed system call: `what` names the operation and the file.
    static func io(_ what: String, _ errno: Errno) -> EventLogError {
        EventLogError(.io, "\(what): \(errno.message)", errno: errno)
    }

    public var description: String { message }
    public var isTransient: Bool { errno.map { $0.isOutOfSpace || $0.isTransientIO } ?? false }
    public var systemError: Int32? { errno?.code }
}
