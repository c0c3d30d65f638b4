import DarkroomSystem

/// A job failure the worker itself detects (outside the pipeline and the output sink): an
/// output format it cannot encode. Carries its own code and retry rule. (Outputs the sink refuses
/// or cannot write are `OutputError`s.)
public struct WorkerError: CodedDarkroomError, Equatable {
    /// Stable dotted codes.
    public enum Code: String, CaseIterable, Sendable {
        /// The job's format is not one this worker can write.
        case unsupportedFormat = "output.unsupported-format"
    }

    public var code: Code
    public var message: String
    /// True when trying again later may succeed (a full disk).
    public var isTransient: Bool
    /// The errno behind the failure, when a system call failed (writing an output).
    public var systemError: Int32?

    public init(code: Code, message: String, isTransient: Bool, systemError: Int32? = nil) {
        self.code = code
        self.message = message
        self.isTransient = isTransient
        self.systemError = systemError
    }

    public var errorMessage: String { message }
    public var description: String { message }

    /// The job's `format` is not one this worker can write.
    static func unsupportedFormat(_ name: String) -> WorkerError {
        WorkerError(
            code: .unsupportedFormat,
            message: "cannot write format '\(name)'; use jpeg, png, webp or avif", isTransient: false)
    }
}
