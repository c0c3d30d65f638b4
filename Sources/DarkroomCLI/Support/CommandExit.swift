import ArgumentParser
import Glibc

/// How every `darkroom` command ends: one rule for the exit status, the table in docs/cli.md.
///
/// - 0: done (and `--help`, `--version`);
/// - 1: the work reported on failed, or an unexpected error;
/// - 2: bad usage, whoever found it: the argument parser (an unknown flag, a missing argument,
///   a value of the wrong type, which it would exit 64 for) or a command (a bad chain, a value out
///   of range, flags that do not go together);
/// - 3: Redis cannot be reached, or the batch named is unknown;
/// - 124: `wait --timeout` ran out first (as `timeout(1)` does).
///
/// Commands throw `ExitCode`s from `QueueExit` after printing their own one-line reason; errors
/// found while parsing (including a command's `validate()`) are printed here, so `--help` given
/// with otherwise incomplete arguments prints only the help.
enum CommandExit {
    /// Prints what `error` says (help on standard output, anything else on standard error) and
    /// exits with its status under the rule above.
    static func exit<Root: ParsableCommand>(with error: any Error, root: Root.Type) -> Never {
        let code = root.exitCode(for: error)
        let message = root.fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { StandardOutput.line(message) }
        } else if !message.isEmpty {
            StandardError.line(message)
        }
        Glibc.exit(status(for: code).rawValue)
    }

    /// The status for `code`: the argument parser's usage status (64, `EX_USAGE`) becomes 2, like
    /// every other usage error; the rest are already the commands' own.
    static func status(for code: ExitCode) -> ExitCode {
        code == .validationFailure ? QueueExit.usage : code
    }
}
