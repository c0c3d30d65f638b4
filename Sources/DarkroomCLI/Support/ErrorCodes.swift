import DarkroomCache
import DarkroomCodecs
import DarkroomCore
import DarkroomPipeline
import DarkroomSources

/// The stable code and one-line message for any error a render can throw; used in JSON records
/// and (later) job events.
enum ErrorReport {
    static func code(of error: any Error) -> String {
        switch error {
        case let error as CodecError: return error.code.rawValue
        case let error as ChainError: return error.code.rawValue
        case let error as RenderError: return error.code
        case let error as FileIOError: return error.code
        case let error as SourceError: return error.code.rawValue
        case let error as CacheError: return error.code
        case is BitmapError: return "image.too-large"
        default: return "internal"
        }
    }

    /// The message for `error` while working on `input`; prefixed with the input unless the
    /// error already names its source (codec and file errors do).
    static func message(of error: any Error, input: String) -> String {
        switch error {
        case is CodecError, is FileIOError, is RenderError, is SourceError: return "\(error)"
        default: return "\(input): \(error)"
        }
    }
}
