import ArgumentParser

/// Bad input on the command line: printed as one line, exit status 2.
struct UsageFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }

    /// Prints the message and returns the exit code to throw (from `run()`).
    func exit() -> ExitCode {
        StandardError.line("darkroom: \(description)")
        return QueueExit.usage
    }

    /// The same reason for a command's `validate()`, which must print nothing: the argument parser
    /// calls `validate()` before it looks for `--help`, and `CommandExit` prints this (with the
    /// command's usage, exit 2) only when no help was asked for.
    var validation: ValidationError { ValidationError(description) }
}
