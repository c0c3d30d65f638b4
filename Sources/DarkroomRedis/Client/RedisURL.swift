import DarkroomSystem

/// Where Redis is and how to log in: parsed from `--redis` or `DARKROOM_REDIS_URL`.
///
/// Forms (user and password are percent-decoded; `%40` is `@`, `%3A` is `:`):
///
///     redis://127.0.0.1                        port 6379, db 0, no password
///     redis://:s3cret@cache.internal:6380/2    password only (classic `requirepass`)
///     redis://worker:s3cret@[::1]:6379/0       Redis 6 ACL user and password
///     unix:///run/redis/redis.sock?db=3        a unix socket, db in the query
///     unix://worker:s3cret@/run/redis.sock     a unix socket with credentials
///
/// `rediss://` (TLS) is refused: hiredis 0.14 has no TLS. Run a TLS sidecar such as stunnel next
/// to each worker (`accept = 127.0.0.1:6380`, `connect = redis.example:6379` with `client = yes`)
/// and point Darkroom at `redis://127.0.0.1:6380`.
///
/// The password never appears in `description` (it prints `***`), so logs and error messages
/// are safe. Keep it out of argv too: pass the URL in `DARKROOM_REDIS_URL`, or put the password in
/// a file named by `DARKROOM_REDIS_PASSWORD_FILE` (see `resolve(argument:environment:)`).
public struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    public enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case unix(path: String)
    }

    public var endpoint: Endpoint
    /// The ACL user for `AUTH user password`; `nil` means the `default` user (`AUTH password`).
    public var username: String?
    public var password: String?
    /// The logical database chosen with `SELECT` after connecting.
    public var database: Int

    public static let defaultPort = 6379
    /// `redis://127.0.0.1:6379`, the default when neither `--redis` nor `DARKROOM_REDIS_URL` is set.
    public static let `default` = RedisURL(endpoint: .tcp(host: "127.0.0.1", port: defaultPort))

    public init(endpoint: Endpoint, username: String? = nil, password: String? = nil, database: Int = 0) {
        self.endpoint = endpoint
        self.username = username
        self.password = password
        self.database = database
    }

    /// Parses a `redis://` or `unix://` URL.
    public init(_ text: String) throws(RedisError) {
        let trimmed = text.trimmingASCIIWhitespace()
        guard let schemeEnd = trimmed.firstRange(of: "://") else {
            throw .invalidURL("expected redis://[user:password@]host[:port][/db] or unix:///path, got \(Self.redactedGuess(trimmed))")
        }
        let scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
        var rest = Substring(trimmed[schemeEnd.upperBound...])

        // Query (`?db=N`) first, then credentials before the last `@` of the authority part.
        var query: [(String, String)] = []
        if let q = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: q)...].split(separator: "&") where !pair.isEmpty {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query.append((String(parts[0]), parts.count > 1 ? String(parts[1]) : ""))
            }
            rest = rest[..<q]
        }

        var username: String?
        var password: String?
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                let user = try Self.percentDecoded(credentials[..<colon], what: "user")
                username = user.isEmpty ? nil : user
                password = try Self.percentDecoded(credentials[credentials.index(after: colon)...], what: "password")
            } else {
                // `redis://worker@host` — userinfo without a colon is a user name (RFC 3986, as
                // redis-py reads it); its password can then come from a password file.
                let user = try Self.percentDecoded(credentials, what: "user")
                username = user.isEmpty ? nil : user
            }
        }

        var database = 0
        switch scheme {
        case "redis":
            let hostPort: Substring
            var path: Substring = ""
            if let slash = rest.firstIndex(of: "/") {
                hostPort = rest[..<slash]
                path = rest[rest.index(after: slash)...]
            } else {
                hostPort = rest
            }
            let (host, port) = try Self.hostAndPort(hostPort)
            if !path.isEmpty { database = try Self.database(path) }
            endpoint = .tcp(host: host, port: port)
        case "unix":
            guard rest.hasPrefix("/"), rest.count > 1 else {
                throw .invalidURL("a unix socket URL needs an absolute path: unix:///path/to/redis.sock")
            }
            endpoint = .unix(path: try Self.percentDecoded(rest, what: "socket path"))
        case "rediss":
            throw .invalidURL("rediss:// (TLS) is not supported by hiredis 0.14; run a TLS sidecar such as stunnel and use redis://127.0.0.1:PORT")
        default:
            throw .invalidURL("unknown scheme \"\(scheme)\"; use redis:// or unix://")
        }
        for (key, value) in query {
            switch key {
            case "db": database = try Self.database(Substring(value))
            default: throw .invalidURL("unknown query parameter \"\(key)\"; only db=N is supported")
            }
        }
        self.username = username
        self.password = password
        self.database = database
    }

    /// This URL with its password read from `path` (one line; a trailing newline is dropped).
    /// A password already in the URL is replaced.
    public func withPassword(fromFile path: String) throws(RedisError) -> RedisURL {
        var copy = self
        copy.password = try RedisPasswordFile.read(path)
        return copy
    }

    /// The URL Darkroom uses: `argument` (from `--redis`) if given, else `DARKROOM_REDIS_URL`, else
    /// `redis://127.0.0.1:6379`; then, when `DARKROOM_REDIS_PASSWORD_FILE` names a file, the
    /// password is read from it (it wins over a password in the URL).
    public static func resolve(argument: String?, environment: [String: String]) throws(RedisError) -> RedisURL {
        var url: RedisURL
        if let argument, !argument.isEmpty {
            url = try RedisURL(argument)
        } else if let fromEnvironment = environment["DARKROOM_REDIS_URL"], !fromEnvironment.isEmpty {
            url = try RedisURL(fromEnvironment)
        } else {
            url = .default
        }
        if let file = environment["DARKROOM_REDIS_PASSWORD_FILE"], !file.isEmpty {
            url = try url.withPassword(fromFile: file)
        }
        return url
    }

    /// The URL with the password replaced by `***`.
    public var description: String {
        var credentials = ""
        if username != nil || password != nil {
            credentials = (username.map(Self.percentEncoded) ?? "") + (password == nil ? "" : ":***") + "@"
        }
        switch endpoint {
        case .tcp(let host, let port):
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return "redis://\(credentials)\(shownHost):\(port)/\(database)"
        case .unix(let path):
            return "unix://\(credentials)\(path)" + (database == 0 ? "" : "?db=\(database)")
        }
    }

    /// `host:port` or the socket path, for error messages.
    public var endpointDescription: String {
        switch endpoint {
        case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): return path
        }
    }

    // MARK: - Parsing pieces

    private static func hostAndPort(_ text: Substring) throws(RedisError) -> (String, Int) {
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .invalidURL("unclosed [ in IPv6 host") }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalidURL("unexpected text after ]: \(after)") }
                portText = after.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = text
        }
        guard !host.isEmpty else { throw .invalidURL("missing host: use redis://host[:port]") }
        var port = defaultPort
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else {
                throw .invalidURL("port must be 1…65535, got \"\(portText)\"")
            }
            port = value
        }
        return (String(host), port)
    }

    private static func database(_ text: Substring) throws(RedisError) -> Int {
        guard let value = Int(text), value >= 0, value < 1 << 20 else {
            throw .invalidURL("database must be a number ≥ 0, got \"\(text)\"")
        }
        return value
    }

    static func percentDecoded(_ text: Substring, what: String) throws(RedisError) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let high = HexDigits.value(utf8.removeFirst()), let low = HexDigits.value(utf8.removeFirst()) else {
                throw .invalidURL("bad percent escape in the \(what)")
            }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x2D || byte == 0x2E || byte == 0x5F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = HexDigits.uppercaseDigits
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return out
    }

    /// Something to show for an unparseable URL without leaking a password in it.
    private static func redactedGuess(_ text: String) -> String {
        text.contains("@") ? "\"…@\(text.split(separator: "@").last ?? "")\"" : "\"\(text)\""
    }
}

extension String {
    fileprivate func trimmingASCIIWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
