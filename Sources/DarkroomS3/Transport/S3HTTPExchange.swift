import Synchronization

/// One HTTP request as the transport sends it: already signed, its URL already encoded.
struct S3HTTPRequest: Sendable {
    var method: String
    var url: String
    /// Every header to send, `Host` included (the one that was signed).
    var headers: [(name: String, value: String)]
    var body: [UInt8] = []
    /// The largest 2xx body accepted; more stops the transfer (`exceededLimit`).
    var maxBytes: Int
}

/// What came back: the status, the headers Darkroom reads, and the body (an error body is kept
/// only up to 64 KiB, to read its `<Code>`).
struct S3HTTPResponse: Sendable {
    var status: Int
    /// Header names lower-cased; the last value of a repeated header.
    var headers: [String: String]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers[name] }
}

/// How a transfer ended when libcurl did not complete it.
enum S3TransportFailure: Error, Sendable {
    /// Connect, total or low-speed timeout; `connected` says whether a connection was made.
    case timeout(connected: Bool, total: Bool)
    /// The 2xx body passed `maxBytes`; `announced` is the `Content-Length`, or -1.
    case tooLarge(announced: Int64)
    /// The calling task was cancelled.
    case cancelled
    /// Anything else libcurl reported: DNS, refused connection, TLS, reset.
    case connection(String)
    /// libcurl could not be initialised or refused an option.
    case setup(String)
    /// No credentials to sign with: the endpoint's credentials source failed (a broken
    /// credentials file, STS unreachable); nothing was sent.
    case credentials(S3Error)
}

/// Set from any thread when the calling task is cancelled; read by libcurl's progress callback on
/// the transfer's thread, which then aborts the transfer.
final class S3Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    func cancel() { flag.store(true, ordering: .relaxed) }
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
