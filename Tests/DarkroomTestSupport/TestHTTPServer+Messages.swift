/// A request as `TestHTTPServer` received it.
public struct TestHTTPRequest: Sendable {
    public var method: String
    /// Path and query, as sent (`/a.jpg?x=1`).
    public var target: String
    public var headers: [(name: String, value: String)]
    /// `http://127.0.0.1:PORT` of the server that received it, for handlers that redirect to
    /// themselves.
    public var origin: String

    /// The target without its query.
    public var path: String { String(target.prefix { $0 != "?" }) }

    /// The first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// What `TestHTTPServer` sends back.
public struct TestHTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)] = []
    public var body: Body = .fixed([])

    /// How the body is framed and paced.
    public enum Body: Sendable {
        /// With a truthful `Content-Length`; the connection stays open for the next request.
        case fixed([UInt8])
        /// No `Content-Length`: the end of the body is the connection closing.
        case untilClose([UInt8])
        /// `Transfer-Encoding: chunked`, in chunks of `chunkSize`.
        case chunked([UInt8], chunkSize: Int)
        /// `bytesPerStep` bytes, then a pause of `interval`, until `bytes` are sent; with or without
        /// announcing the length first.
        case drip([UInt8], bytesPerStep: Int, interval: Duration, announceLength: Bool)
        /// `chunk` over and over without a length, until the client hangs up or `limit` bytes have
        /// gone out.
        case endless(chunk: [UInt8], limit: Int)

        var keepsConnection: Bool {
            switch self {
            case .fixed, .chunked: return true
            default: return false
            }
        }
    }

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .fixed([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// 200 with `bytes` and a content type.
    public static func ok(_ bytes: [UInt8], contentType: String = "image/jpeg") -> TestHTTPResponse {
        TestHTTPResponse(status: 200, headers: [("Content-Type", contentType)], body: .fixed(bytes))
    }

    /// Closes the connection without sending anything.
    public static let hangUp = TestHTTPResponse(status: 0)

    /// A status with a short text body.
    public static func status(_ status: Int, _ text: String = "") -> TestHTTPResponse {
        TestHTTPResponse(
            status: status, headers: [("Content-Type", "text/plain")],
            body: .fixed(Array((text.isEmpty ? "status \(status)\n" : text).utf8)))
    }

    /// A redirect (302 unless told) to `location`, absolute or relative.
    public static func redirect(_ status: Int = 302, to location: String) -> TestHTTPResponse {
        TestHTTPResponse(
            status: status, headers: [("Location", location), ("Content-Type", "text/plain")],
            body: .fixed(Array("moved to \(location)\n".utf8)))
    }

    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 404: return "Not Found"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        default: return "Status"
        }
    }
}
