import ArgumentParser

/// Bad input on the command line: printed as one line, exit status 2.
struct UsageFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }

    /// Prints the message and returns the exit code to throw.
    func exit() -> ExitCode {
        StandardError.line("darkroom: \(description)")
        return ExitCode(2)
    }
}
