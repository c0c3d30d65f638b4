import CDarkroomPlugin
import DarkroomSystem

/// A plugin callback reported an error, or broke the ABI's rules (an output size of 0).
///
/// Only the job that ran into it fails: permanently with `plugin.failed`, or, when the plugin
/// returned `DARKROOM_FAILED_TRANSIENT`, as a transient failure that is retried with backoff.
public struct PluginFailure: CodedDarkroomError, Equatable {
    /// One code for every plugin failure; `isTransient` says whether it is retried.
    public enum Code: String, CaseIterable, Sendable {
        case failed = "plugin.failed"
    }

    /// What failed: `processor 'invert' (example-c 1.0.0)`.
    public var subject: String
    /// The plugin's own message, or the host's account of what the plugin did wrong.
    public var message: String
    public var isTransient: Bool

    public init(subject: String, message: String, isTransient: Bool = false) {
        self.subject = subject
        self.message = message
        self.isTransient = isTransient
    }

    public var code: Code { .failed }
    public var description: String { "plugin \(subject) failed: \(message)" }

    /// The failure a callback's status and error buffer describe.
    static func from(status: darkroom_status, error: inout darkroom_error, subject: String) -> PluginFailure {
        let text = message(in: &error)
        switch status {
        case DARKROOM_FAILED_TRANSIENT:
            return PluginFailure(subject: subject, message: text ?? "failed without a message (transient)", isTransient: true)
        case DARKROOM_FAILED:
            return PluginFailure(subject: subject, message: text ?? "failed without a message")
        default:
            return PluginFailure(subject: subject, message: (text.map { $0 + " " } ?? "") + "(unknown status \(status), taken as a failure)")
        }
    }

    /// The NUL-terminated message in `error`, read within its capacity whatever the plugin wrote,
    /// with control characters turned into spaces so it stays one line; nil when empty.
    static func message(in error: inout darkroom_error) -> String? {
        let bytes = withUnsafeBytes(of: &error.message) { raw in
            Array(raw.prefix { $0 != 0 }).map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: " ") : $0 }
        }
        let text = String(decoding: bytes, as: UTF8.self).trimmingSpaces
        return text.isEmpty ? nil : text
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars = scalars.dropFirst() }
        while scalars.last == " " { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
