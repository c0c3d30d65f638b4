import DarkroomSystem

/// Why an output could not be stored, with a stable code. Transient (the job is retried) when
/// the volume or quota is full, the file system had a hiccup, or object storage is unreachable,
/// throttling or refuses the credentials or the clock; permanent otherwise.
public struct OutputError: CodedDarkroomError, Equatable {
    /// The codes an `OutputSink` raises.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The destination is outside what the sink accepts (`--allow-output-root`), or the name
        /// is not one safe path component.
        case notAllowed = "output.not-allowed"
        /// The name holds different bytes and the store was asked not to replace them.
        case taken = "output.taken"
        /// Permissions, a file where a directory should be, and other failures that need a person.
        case cannotWrite = "output.cannot-write"
        /// The volume or the quota is full.
        case diskFull = "output.disk-full"
        /// A transient I/O failure (a busy network file system, an object upload that vanished).
        case io = "output.io"
        /// Object storage: the credentials work but may not write there (403 `AccessDenied`).
        case forbidden = "output.forbidden"
        /// Object storage: the credentials are wrong, expired or rotated (`InvalidAccessKeyId`,
        /// `SignatureDoesNotMatch`, `ExpiredToken`). Transient, so a key rotation does not
        /// dead-letter a batch.
        case credentials = "output.credentials"
        /// Object storage: this host's clock is too far from the service's (`RequestTimeTooSkewed`).
        /// Transient.
        case clockSkew = "output.clock-skew"
        /// Object storage: the service is unreachable, slow, throttling (`SlowDown`) or answering
        /// 5xx. Transient.
        case unavailable = "output.unavailable"
    }

    public var code: Code
    public var message: String
    /// The errno behind the failure, when a system call failed.
    public var systemError: Int32?
    /// For `output.taken`: who wrote the output under the name, when the sink knows (a file
    /// written before owners were recorded, or on a file system without extended attributes,
    /// has none).
    public var owner: OutputOwner?

    public init(_ code: Code, _ message: String, systemError: Int32? = nil, owner: OutputOwner? = nil) {
        self.code = code
        self.message = message
        self.systemError = systemError
        self.owner = owner
    }

    public var isTransient: Bool {
        switch code {
        case .diskFull, .io, .credentials, .clockSkew, .unavailable: true
        case .notAllowed, .taken, .cannotWrite, .forbidden: false
        }
    }
    public var description: String { message }

    /// A destination outside every allowed root (or a sink that accepts none).
    public static func notAllowed(_ destination: String, roots: [String]) -> OutputError {
        let why =
            roots.isEmpty
            ? "this worker accepts no outputs; start it with --allow-output-root DIR"
            : "it is not inside an allowed output root (\(roots.joined(separator: ", ")))"
        return OutputError(.notAllowed, "output directory '\(destination)' refused: \(why)")
    }

    /// A name that is not one safe path component.
    public static func badName(_ name: String) -> OutputError {
        OutputError(.notAllowed, "output name '\(name)' refused: it must be one file name, without '/'")
    }

    /// The name holds other bytes, written by `owner` when the sink knows.
    public static func taken(_ location: String, owner: OutputOwner? = nil) -> OutputError {
        OutputError(.taken, "\(location): already holds a different output", owner: owner)
    }

    /// The error for a failed system call: a full disk (or quota) and the errors of a busy
    /// network file system are transient; permissions and the rest are not.
    public static func failure(_ code: Int32, path: String, doing what: String) -> OutputError {
        let errno = Errno(code)
        let reason = errno.message
        if errno.isOutOfSpace {
            return OutputError(.diskFull, "\(path): cannot \(what) (\(reason)); free space on the output volume", systemError: code)
        }
        if errno.isTransientIO {
            return OutputError(.io, "\(path): cannot \(what) (\(reason))", systemError: code)
        }
        return OutputError(
            .cannotWrite, "\(path): cannot \(what) (\(reason)); check the output directory's owner and mode", systemError: code)
    }
}
