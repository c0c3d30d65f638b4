import DarkroomSystem

/// The stable code and one-line message for any error a render can throw; used in JSON records
/// and (later) job events. Read from `DarkroomError`, so every Darkroom error is covered:
///
/// | Error | Code | Message |
/// |---|---|---|
/// | a `DarkroomError` naming its source (codec, source, render, file errors) | its `errorCode` | its message |
/// | any other `DarkroomError` (chain, bitmap, cache errors…) | its `errorCode` | `INPUT: ` + its message |
/// | anything else | `internal` | `INPUT: ` + its description |
enum ErrorReport {
    static func code(of error: any Error) -> String {
        (error as? any DarkroomError)?.errorCode ?? "internal"
    }

    /// The message for `error` while working on `input`; prefixed with the input unless the
    /// error already names its source.
    static func message(of error: any Error, input: String) -> String {
        (error as? any DarkroomError)?.message(about: input) ?? "\(input): \(error)"
    }
}
