import DarkroomSystem

/// The coordinator's HTTP settings cannot be used, or its server refused a request; the message
/// says which and what to do.
public struct CoordinatorHTTPError: CodedDarkroomError, Hashable {
    public enum Code: String, CaseIterable, Sendable {
        /// `--http` is not `HOST:PORT` with a port in 0…65535.
        case invalidAddress = "http.invalid-address"
        /// A non-loopback address without a token, and without `--insecure-http`.
        case tokenRequired = "http.token-required"
        /// The token is empty, too short, or its file cannot be read.
        case invalidToken = "http.invalid-token"
        /// The server could not listen on the address (a port in use, an address not on this host).
        case listenFailed = "http.listen-failed"
        /// A state-changing request made with the dashboard's session cookie (or to a server
        /// without a token) whose `Origin` is missing or not the server's own (403).
        case crossSiteRequest = "http.cross-site-request"
        /// `--session-ttl` is out of range.
        case invalidSessionLifetime = "http.invalid-session-ttl"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
    public var isTransient: Bool { false }
    public var systemError: Int32? { nil }
}
