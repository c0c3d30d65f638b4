import ArgumentParser

extension DarkroomCommand {
    /// The entry point of `darkroom`: parses the command line, runs the command it names, and on
    /// failure exits with the status of the one rule every command follows (`CommandExit`), rather
    /// than the argument parser's own (which exits 64 for a malformed command line).
    public static func main() async {
        do {
            var command = try await asyncParseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            CommandExit.exit(with: error, root: Self.self)
        }
    }

    /// Errors found while parsing read `darkroom: REASON`, like those the commands print.
    public static var _errorPrefix: String { "darkroom: " }
}
