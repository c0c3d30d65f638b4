import DarkroomSystem

/// Why a chain could not be read or built. Every case names where, so a person can fix the text.
///
/// `description` is the one-line message the CLI prints, for example
/// `blur: radius must be > 0 (got -3) at column 31` or
/// `unknown processor 'rond' at column 1 — did you mean 'roundCorner'?`.
public struct ChainError: CodedDarkroomError, Equatable {
    /// A stable code for scripts and job records.
    public enum Code: String, CaseIterable, Sendable {
        case syntax = "chain.syntax"
        case unknownProcessor = "chain.unknown-processor"
        case unknownArgument = "chain.unknown-argument"
        case missingArgument = "chain.missing-argument"
        case duplicateArgument = "chain.duplicate-argument"
        case tooManyArguments = "chain.too-many-arguments"
        case invalidArgument = "chain.invalid-argument"
        case empty = "chain.empty"
    }

    public var code: Code
    /// The processor involved, when there is one.
    public var processor: String?
    /// The argument involved, when there is one.
    public var argument: String?
    /// 1-based column in the chain text.
    public var column: Int
    /// What is wrong, without the processor name or the column.
    public var message: String
    /// The nearest known name, for typos.
    public var suggestion: String?

    public init(code: Code, processor: String? = nil, argument: String? = nil, column: Int, message: String, suggestion: String? = nil) {
        self.code = code
        self.processor = processor
        self.argument = argument
        self.column = column
        self.message = message
        self.suggestion = suggestion
    }

    public var description: String {
        var text = processor.map { "\($0): " } ?? ""
        text += "\(message) at column \(column)"
        if let suggestion { text += " — did you mean '\(suggestion)'?" }
        return text
    }
}

extension ChainError {
    /// The chain text is wrong; running it again cannot help.
    public var isTransient: Bool { false }
    /// The message names the processor and column, not the chain: a job record says "bad chain".
    public var contextLabel: String? { "bad chain" }
}

extension ChainError {
    /// `unknown processor 'rond' at column 1 — did you mean 'roundCorner'?`, the suggestion the
    /// nearest of `names`.
    public static func unknownProcessor(_ call: ParsedCall, among names: [String]) -> ChainError {
        ChainError(
            code: .unknownProcessor, column: call.column, message: "unknown processor '\(call.name)'",
            suggestion: NameSuggester.nearest(to: call.name, among: names))
    }
}
