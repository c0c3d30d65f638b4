/// A mistake in the job list, tied to its place: `list.txt:12: 'quality' must be a whole number 1…100`.
public struct SourceListError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The list's name as shown (`<stdin>` for standard input).
    public var file: String
    /// 1-based; nil for a mistake about the whole list.
    public var line: Int?
    /// What is wrong with the line.
    public var message: String

    /// A mistake in `file` at `line`.
    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`, as printed.
    public var description: String {
        line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
    }
}

/// Every mistake found in a job list (parsing stops after `maxErrors`).
public struct SourceListErrors: Error, Sendable, Equatable {
    /// The mistakes, in line order.
    public var errors: [SourceListError]
    /// Parsing stopped before the end of the file.
    public var truncated: Bool
}

/// Why a job list could not be read at all (as opposed to read and found wrong).
public enum SourceListReadFailure: Error, Sendable, Equatable {
    /// Standard input is closed, a directory, or failed; `reason` is the system's word for why.
    case standardInput(reason: String?)
    /// The file is missing or unreadable.
    case file(String)
}
