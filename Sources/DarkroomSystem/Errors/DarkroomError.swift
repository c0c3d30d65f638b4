/// What every Darkroom error says about itself, so retry decisions, job records and CLI reports
/// read these properties instead of switching over error types (after Hummingbird's
/// `HTTPResponseError`). A new error type conforms here and is then handled everywhere.
///
/// The names carry an `error` prefix because several conforming types already have a typed
/// `code` (an enum of their own codes) or a `message` that is only part of the text.
public protocol DarkroomError: Error, Sendable, CustomStringConvertible {
    /// The stable dotted code scripts and job records match on, e.g. `cache.disk-full`.
    var errorCode: String { get }
    /// True when the same operation may succeed later (a full disk, a timeout, a 5xx), so a job
    /// is retried with backoff rather than failed at once.
    var isTransient: Bool { get }
    /// One line for a person: what failed, where, and what to do. Defaults to `description`.
    var errorMessage: String { get }
    /// True when `errorMessage` already names the source it is about (a file, a URL); a report
    /// about a known input puts the input in front of messages that do not. Defaults to false.
    var messageNamesSource: Bool { get }
    /// For a message that does not name its source, a short phrase a job record puts in front of
    /// it instead (`bad chain`); nil for none, the default.
    var contextLabel: String? { get }
    /// The `errno` behind the failure when it came from a system call; nil by default.
    var systemError: Int32? { get }
    /// True when a service the operation needs (the queue's backend) is out of reach — down,
    /// unreachable, timing out, refusing our credentials — rather than the request being wrong.
    /// The CLI exits with its "unreachable" status for these, and readers that ride out an outage
    /// retry the ones that are also transient. False by default.
    var isUnavailable: Bool { get }
}

extension DarkroomError {
    public var errorMessage: String { description }
    public var messageNamesSource: Bool { false }
    public var contextLabel: String? { nil }
    public var systemError: Int32? { nil }
    public var isUnavailable: Bool { false }

    /// The message for a report about `source` (the CLI's input): prefixed with it unless the
    /// message names its source itself.
    public func message(about source: String) -> String {
        messageNamesSource ? errorMessage : "\(source): \(errorMessage)"
    }

    /// The message on its own (a job record, which names its source elsewhere): prefixed with
    /// `contextLabel` when the message does not name its source.
    public var standaloneMessage: String {
        guard !messageNamesSource, let contextLabel else { return errorMessage }
        return "\(contextLabel): \(errorMessage)"
    }
}
