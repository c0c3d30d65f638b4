import DarkroomSystem

/// The stable code and one-line message for any error a render can throw, for JSON records: what
/// `ErrorSummary` says (the one lookup), the message prefixed with the input unless the error
/// names its source itself. The codes are the table in `docs/limits-and-errors.md`.
enum ErrorReport {
    static func code(of error: any Error) -> String {
        ErrorSummary(error).code
    }

    /// The message for `error` while working on `input`.
    static func message(of error: any Error, input: String) -> String {
        ErrorSummary(error).message(about: input)
    }
}
