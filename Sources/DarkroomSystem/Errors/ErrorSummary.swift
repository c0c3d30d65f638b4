/// Any error reduced to what a job record, a retry decision or a CLI report needs: the one place
/// an arbitrary error becomes a code, a message, a retry rule and an outage classification.
///
/// | Error | Code | Transient |
/// |---|---|---|
/// | any `DarkroomError` | its `errorCode` | its `isTransient` |
/// | `CancellationError` | `worker.cancelled` | yes: the job was fine, the worker stopped |
/// | anything else | `internal` | yes: it may be the machine, not the job; attempts are bounded |
public struct ErrorSummary: Sendable, Hashable {
    /// The codes the summary itself gives, for errors that say none.
    public enum Code: String, CaseIterable, Sendable {
        /// A `CancellationError`: the worker (or command) stopped before the work finished.
        case cancelled = "worker.cancelled"
        /// An error that is not a `DarkroomError`: a bug, or the machine.
        case `internal` = "internal"
    }

    public var code: String
    /// The message on its own (`DarkroomError.standaloneMessage`).
    public var message: String
    public var isTransient: Bool
    /// The error's `isUnavailable`: a service it needs is out of reach.
    public var isUnavailable: Bool
    /// The message without any context label, and whether it names its source (for a report
    /// about a known input, `message(about:)`).
    var plainMessage: String
    var namesSource: Bool

    public init(code: String, message: String, isTransient: Bool, isUnavailable: Bool = false) {
        self.code = code
        self.message = message
        self.isTransient = isTransient
        self.isUnavailable = isUnavailable
        self.plainMessage = message
        self.namesSource = false
    }

    /// The summary of `error`.
    public init(_ error: any Error) {
        if let error = error as? any DarkroomError {
            self.init(code: error.errorCode, message: error.standaloneMessage, isTransient: error.isTransient, isUnavailable: error.isUnavailable)
            plainMessage = error.errorMessage
            namesSource = error.messageNamesSource
        } else if error is CancellationError {
            self.init(code: Code.cancelled.rawValue, message: "the worker stopped before the job finished", isTransient: true)
        } else {
            self.init(code: Code.internal.rawValue, message: "unexpected error: \(error)", isTransient: true)
            plainMessage = "\(error)"
        }
    }

    /// The message for a report about `source` (the CLI's input): prefixed with it unless the
    /// message names its source itself.
    public func message(about source: String) -> String {
        namesSource ? plainMessage : "\(source): \(plainMessage)"
    }

    /// A service the operation needs is out of reach and may come back (a queue outage that a
    /// reader rides out), as opposed to credentials it refused, which will not fix themselves.
    public var isPassingOutage: Bool { isUnavailable && isTransient }

    /// Equal when what a record keeps is equal: code, standalone message and classification.
    public static func == (lhs: ErrorSummary, rhs: ErrorSummary) -> Bool {
        (lhs.code, lhs.message, lhs.isTransient, lhs.isUnavailable) == (rhs.code, rhs.message, rhs.isTransient, rhs.isUnavailable)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(isTransient)
        hasher.combine(isUnavailable)
    }
}
