import Logging

/// Logging for the long-running commands (`worker`, `coordinator`): swift-log to standard error,
/// at the level `--log-level` names.
enum ServiceLogging {
    /// The level `text` names, case-insensitively; a usage failure naming the flag otherwise.
    static func level(_ text: String) throws(UsageFailure) -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw UsageFailure("--log-level must be trace, debug, info, notice, warning, error or critical (got '\(text)')")
        }
        return level
    }

    /// A logger writing lines at or above `level` to standard error.
    static func logger(label: String, level: Logger.Level) -> Logger {
        Logger(label: label) { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
