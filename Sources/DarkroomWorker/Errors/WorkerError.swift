import DarkroomSystem

/// A job failure the worker itself detects (outside the pipeline): an output it may not or
/// cannot write, an output format it cannot encode. Carries its own code and retry rule.
public struct WorkerError: CodedDarkroomError, Equatable {
    /// Stable dotted codes.
    public enum Code: String, CaseIterable, Sendable {
        /// The job's output is outside every `--allow-output-root`.
        case notAllowed = "output.not-allowed"
        /// The job's format is not one this worker can write.
        case unsupportedFormat = "output.unsupported-format"
        /// The output volume or quota is full (transient).
        case diskFull = "output.disk-full"
        /// A system call on the output failed in a way that may pass (transient).
        case io = "output.io"
        /// The output cannot be written: permissions, a path that is not a directory.
        case cannotWrite = "output.cannot-write"
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

    /// The job's `output` is outside every `--allow-output-root` (or the worker has none).
    static func outputNotAllowed(_ output: String, roots: [String]) -> WorkerError {
        let why =
            roots.isEmpty
            ? "this worker accepts no outputs; start it with --allow-output-root DIR"
            : "it is not inside an allowed output root (\(roots.joined(separator: ", ")))"
        return WorkerError(code: .notAllowed, message: "output directory '\(output)' refused: \(why)", isTransient: false)
    }

    /// The job's `format` is not one this worker can write.
    static func unsupportedFormat(_ name: String) -> WorkerError {
        WorkerError(
            code: .unsupportedFormat,
            message: "cannot write format '\(name)'; use jpeg, png or webp", isTransient: false)
    }
}
