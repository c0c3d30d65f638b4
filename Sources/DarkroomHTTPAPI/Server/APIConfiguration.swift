import DarkroomS3

/// Where the job API listens, what it serves from, and its limits per request.
public struct APIConfiguration: Sendable {
    /// The most jobs one `POST /v1/batches` may hold.
    public static let maxJobsPerRequest = 1000

    /// The address to bind: an IPv4/IPv6 literal or a host name.
    public var host: String
    /// The port; 0 picks a free one (tests).
    public var port: Int
    /// A TLS-terminating proxy is in front (`--behind-tls-proxy`): a non-loopback bind is allowed.
    /// The API itself never speaks TLS.
    public var behindTLSProxy: Bool
    /// The directory job outputs are written under (`--output-root`), read only. Nil: outputs
    /// written there are not served.
    public var outputRoot: String?
    /// The shared cache directory (`--cache-root`), read only, for results kept only in the cache.
    public var cacheRoot: String?
    /// The largest request body read, in bytes: a thousand jobs of a few hundred bytes each.
    public var maxBodyBytes: Int
    /// The largest output file served, in bytes.
    public var maxOutputBytes: Int
    /// The most connections open at once; past it, new ones wait in the listen backlog.
    public var maxConnections: Int = 1000
    /// A connection that sends or reads nothing for this long is closed (a client that stalls
    /// mid-request, or an idle keep-alive connection).
    public var idleTimeout: Duration = .seconds(30)
    /// The longest a request's head may take to arrive (`--header-timeout`): from the
    /// connection's start, or the first byte after the previous response, to the end of the
    /// headers. Past it: `408 api.request-timeout`, and the connection closes.
    public var headTimeout: Duration = .seconds(10)
    /// The longest a request's body may take to arrive, from the end of its headers to its last
    /// byte (`--body-timeout`): 4 MiB in 60 s is about 70 KB/s. Past it: as `headTimeout`.
    public var bodyTimeout: Duration = .seconds(60)
    /// The origins browsers may call the API from (`--cors-origin`, e.g. `https://app.example.com`);
    /// empty, the default: no cross-origin access.
    public var corsOrigins: [String] = []
    /// Where relative sources and output directories start from (`/`: an API client names
    /// absolute paths).
    public var workingDirectory: String
    /// The object storage `s3://` prefixes and globs in `POST /v1/batches` are listed from
    /// (`darkroom api --s3-endpoint` and `--allow-bucket`): a pattern on a bucket not allowed
    /// here is refused. Empty, the default: every pattern is refused.
    public var s3 = S3Configuration()
    /// The most jobs the prefixes and globs of one `POST /v1/batches` expand to (10,000): the
    /// listing stops there and the request is refused past it (`api.too-many-jobs`), with the
    /// jobs of the pages before enqueued. Bigger prefixes go through `darkroom enqueue`, or
    /// several requests by narrower prefix (docs/http-api.md#prefixes-and-globs).
    public var maxListedJobs = 10_000
    /// Keys asked per `ListObjectsV2` page (S3 answers at most 1000): one page is listed,
    /// checked and enqueued before the next is asked for.
    public var s3ListPageSize = 1000

    public init(
        host: String = "127.0.0.1", port: Int = 8080, behindTLSProxy: Bool = false, outputRoot: String? = nil,
        cacheRoot: String? = nil, maxBodyBytes: Int = 4 << 20, maxOutputBytes: Int = 256 << 20, workingDirectory: String = "/"
    ) {
        self.host = host
        self.port = port
        self.behindTLSProxy = behindTLSProxy
        self.outputRoot = outputRoot
        self.cacheRoot = cacheRoot
        self.maxBodyBytes = maxBodyBytes
        self.maxOutputBytes = maxOutputBytes
        self.workingDirectory = workingDirectory
    }

    /// `HOST:PORT` (IPv6 as `[::1]:PORT`) as a host and a port.
    public static func address(_ text: String) throws(APIError) -> (host: String, port: Int) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2, let port = Int(parts[parts.count - 1]), (0...65535).contains(port) else {
            throw APIError(.invalidAddress, "--listen must be HOST:PORT, like 127.0.0.1:8080 or [::1]:8080 (got '\(text)')")
        }
        var host = parts.dropLast().joined(separator: ":")
        if host.first == "[", host.last == "]" { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, host.allSatisfy({ $0 != " " && $0 != "/" }) else {
            throw APIError(.invalidAddress, "--listen must be HOST:PORT with a host (got '\(text)')")
        }
        return (host, port)
    }

    /// Whether `text` is an origin as browsers send it: `http(s)://host[:port]`, no path, no `*`.
    static func isOrigin(_ text: String) -> Bool {
        let parts = text.split(separator: "://", maxSplits: 1).map(String.init)
        guard parts.count == 2, ["http", "https"].contains(parts[0]), let authority = parts.last, !authority.isEmpty else { return false }
        return authority.allSatisfy { $0.isLetter || $0.isNumber || "-.:[]".contains($0) }
    }

    /// Whether `host` only reaches this machine: `localhost`, 127.0.0.0/8 or `::1`.
    public var listensOnLoopback: Bool {
        if ["localhost", "::1", "0:0:0:0:0:0:0:1"].contains(host) { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Refuses a plain-HTTP listener other machines can reach (requests and answers would cross
    /// the network in clear), and roots that are not absolute.
    public func validate() throws(APIError) {
        if !listensOnLoopback, !behindTLSProxy {
            throw APIError(
                .tlsRequired,
                "--listen \(host):\(port) listens beyond this machine over plain HTTP; put a TLS-terminating proxy in front and pass --behind-tls-proxy, or bind 127.0.0.1"
            )
        }
        for (flag, root) in [("--output-root", outputRoot), ("--cache-root", cacheRoot)] {
            if let root, !root.hasPrefix("/") || root.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) {
                throw APIError(.invalidRoot, "\(flag) must be an absolute path without '.' or '..' (got '\(root)')")
            }
        }
        for (flag, timeout) in [("--header-timeout", headTimeout), ("--body-timeout", bodyTimeout)]
        where timeout <= .zero || timeout > .seconds(3600) {
            throw APIError(.invalidTimeout, "\(flag) must be more than 0 and at most 3600 seconds (got \(timeout))")
        }
        for origin in corsOrigins where !Self.isOrigin(origin) {
            throw APIError(.invalidOrigin, "--cors-origin must be an origin, scheme://host[:port] without a path (got '\(origin.prefix(200))')")
        }
    }
}
