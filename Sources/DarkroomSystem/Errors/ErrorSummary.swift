/// Any error reduced to what a job record needs: code, message, and whether to retry.
///
/// | Error | Code | Transient |
/// |---|---|---|
/// | any `DarkroomError` | its `errorCode` | its `isTransient` |
/// | `CancellationError` | `worker.cancelled` | yes: the job was fine, the worker stopped |
/// | anything else | `internal` | yes: it may be the machine, not the job; attempts are bounded |
public struct ErrorSummary: Sendable, Hashable {
    public var code: String
    /// The message on its own (`DarkroomError.standaloneMessage`).
    public var message: String
    public var isTransient: Bool

    public init(code: String, message: String, isTransient: Bool) {
        self.code = code
        self.message = message
        self.isTransient = isTransient
    }

    /// The summary of `error`.
    public init(_ error: any Error) {
        if let error = error as? any DarkroomError {
            self.init(code: error.errorCode, message: error.standaloneMessage, isTransient: error.isTransient)
        } else if error is CancellationError {
            self.init(code: "worker.cancelled", message: "the worker stopped before the job finished", isTransient: true)
        } else {
            self.init(code: "internal", message: "unexpected error: \(error)", isTransient: true)
        }
    }
}
