/// Where the coordinator's HTTP server listens and how it guards itself.
public struct CoordinatorHTTPConfiguration: Sendable {
    /// The address to bind: an IPv4/IPv6 literal or a host name.
    public var host: String
    /// The port; 0 picks a free one (tests).
    public var port: Int
    /// Required on every endpoint but `/healthz` when set.
    public var token: AccessToken?
    /// Allows a non-loopback bind without a token (`--insecure-http`).
    public var allowInsecure: Bool
    /// How often an idle `/events` stream gets a comment line, so proxies and browsers keep it open.
    public var heartbeat: Duration
    /// Events buffered per `/events` client; a client further behind is disconnected (it resumes
    /// with `Last-Event-ID`), so a stalled browser never holds the coordinator back.
    public var clientBufferSize: Int
    /// How long `/healthz` tolerates a checkpoint that does not advance while events wait.
    public var staleAfter: Duration
    /// How long a dashboard login (`/?token=…`) lasts (`--session-ttl`); then the page asks to
    /// log in again.
    public var sessionLifetime: Duration = DashboardSession.defaultLifetime
    /// Where job outputs are read from for the dashboard's preview, as `darkroom api
    /// --output-root` (read only, never following a link); nil: the preview says it is not served.
    public var outputRoot: String?
    /// The shared cache directory, for results kept only in the cache (`--cache-root`).
    public var cacheRoot: String?

    public init(
        host: String, port: Int, token: AccessToken? = nil, allowInsecure: Bool = false,
        heartbeat: Duration = .seconds(15), clientBufferSize: Int = 1024, staleAfter: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.token = token
        self.allowInsecure = allowInsecure
        self.heartbeat = heartbeat
        self.clientBufferSize = clientBufferSize
        self.staleAfter = staleAfter
    }

    /// `HOST:PORT` (IPv6 as `[::1]:PORT`) as a host and a port.
    public static func address(_ text: String) throws(CoordinatorHTTPError) -> (host: String, port: Int) {
        let invalid = CoordinatorHTTPError(
            .invalidAddress, "--http must be HOST:PORT, like 127.0.0.1:9464 or [::1]:9464 (got '\(text)')")
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else { throw invalid }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else { throw invalid }
        return (host, port)
    }

    /// Whether `host` only reaches this machine: `localhost`, 127.0.0.0/8 or `::1`.
    public var isLoopback: Bool {
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Refuses a bind that would expose the fleet's status without a token.
    public func validate() throws(CoordinatorHTTPError) {
        guard (60...(30 * 24 * 3600)).contains(sessionLifetime.components.seconds) else {
            throw CoordinatorHTTPError(
                .invalidSessionLifetime, "--session-ttl must be 60…2592000 seconds (got \(sessionLifetime.components.seconds))")
        }
        if token == nil, !isLoopback, !allowInsecure {
            throw CoordinatorHTTPError(
                .tokenRequired,
                "--http \(host):\(port) listens beyond this machine without a token; set DARKROOM_HTTP_TOKEN or DARKROOM_HTTP_TOKEN_FILE (or --http-token-file), bind 127.0.0.1, or pass --insecure-http"
            )
        }
    }
}
