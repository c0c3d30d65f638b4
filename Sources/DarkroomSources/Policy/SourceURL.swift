/// An `http`/`https` URL taken apart strictly and put back together in one normal form.
///
/// Why not hand the text to libcurl as typed: the allow-list and the cache key compare URL
/// *parts*, and two parsers that disagree about where the host ends (`http://a.com@evil/`,
/// `http://a.com\@evil/`, `http://0x7f.1/`) are how allow-lists get bypassed. So the text is parsed
/// here once, anything ambiguous is refused, and libcurl is given `serialized` — a URL in which
/// every part is unambiguous — never the raw text.
///
/// Normal form: lower-case scheme and host; a trailing dot on the host removed; IPv4 hosts in any
/// WHATWG spelling (`2130706433`, `0x7f.1`, `127.1`, `017700000001`) written as dotted quads;
/// IPv6 hosts in `inet_ntop` form; the default port dropped; percent-escapes of unreserved
/// characters decoded and other escapes upper-cased; `.` and `..` segments removed; spaces and
/// non-ASCII bytes escaped; the fragment dropped.
public struct SourceURL: Hashable, Sendable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// Lower-case name, dotted-quad IPv4, or IPv6 without brackets.
    public let host: String
    public let hostKind: HostKind
    /// The port, with the scheme's default filled in.
    public let port: Int
    /// Starts with `/`, normalised.
    public let path: String
    /// Without the `?`; nil when absent or empty.
    public let query: String?

    public enum HostKind: Sendable, Hashable {
        case name, ipv4, ipv6
    }

    /// Why a URL was not accepted: unreadable (`invalid`) or readable but not allowed (`refused`).
    public struct Problem: Error, Sendable, Equatable {
        public enum Kind: Sendable { case invalid, refused }
        public var kind: Kind
        public var message: String

        func sourceError(for source: String) -> SourceError {
            SourceError(kind == .invalid ? .invalid : .refused, source: source, message)
        }

        static func invalid(_ message: String) -> Problem { Problem(kind: .invalid, message: message) }
        static func refused(_ message: String) -> Problem { Problem(kind: .refused, message: message) }
    }

    /// 80 for http, 443 for https.
    public var defaultPort: Int { scheme == "https" ? 443 : 80 }

    /// The URL libcurl is given and caches are keyed by.
    public var serialized: String {
        var text = origin + path
        if let query { text += "?" + query }
        return text
    }

    public var description: String { serialized }

    /// `scheme://host[:port]`, the smallest allow-list prefix naming this URL's host.
    public var origin: String {
        scheme + "://" + (hostKind == .ipv6 ? "[\(host)]" : host) + (port != defaultPort ? ":\(port)" : "")
    }

    /// Parses `text` (surrounding spaces ignored).
    public init(parsing text: String) throws(Problem) {
        var bytes = Array(text.utf8)
        while let last = bytes.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D { bytes.removeLast() }
        let leading = bytes.prefix(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }).count
        bytes.removeFirst(leading)
        guard !bytes.isEmpty else { throw .invalid("is empty") }
        guard bytes.count <= 8192 else { throw .invalid("is longer than 8192 characters") }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw .invalid("contains a control character (tab, newline…); write it percent-encoded")
        }
        if bytes.contains(0x5C) {
            throw .invalid("contains a backslash, which browsers and servers read differently; write it as %5C")
        }

        // scheme ":"
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            bytes[0..<colon].allSatisfy({ Self.isSchemeByte($0) })
        else {
            throw .invalid("is not a URL (expected http:// or https://)")
        }
        let scheme = String(decoding: bytes[0..<colon], as: UTF8.self).lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .refused("uses the \(scheme): scheme; only http and https sources are fetched")
        }
        guard bytes.count >= colon + 3, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else {
            throw .invalid("must start with \(scheme)://")
        }

        // authority: up to the first "/", "?" or "#"
        let authorityStart = colon + 3
        let authorityEnd =
            bytes[authorityStart...].firstIndex(where: {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            }) ?? bytes.endIndex
        let authority = bytes[authorityStart..<authorityEnd]
        if authority.contains(UInt8(ascii: "@")) {
            throw .refused(
                "carries a user name or password (user@host); such URLs are refused because they "
                    + "disguise the real host and would send credentials")
        }
        let (host, hostKind, port) = try Self.parseHostAndPort(authority, scheme: scheme)

        // path, query; the fragment never reaches the server
        let rest = bytes[authorityEnd...]
        let fragmentStart = rest.firstIndex(of: UInt8(ascii: "#")) ?? rest.endIndex
        let beforeFragment = rest[..<fragmentStart]
        let queryStart = beforeFragment.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = beforeFragment[..<(queryStart ?? beforeFragment.endIndex)]
        let path = try Self.normalizePath(rawPath)
        var query: String?
        if let queryStart, queryStart + 1 < beforeFragment.endIndex {
            query = try Self.normalizeEscapes(beforeFragment[(queryStart + 1)...], part: "query")
        }

        self.scheme = scheme
        self.host = host
        self.hostKind = hostKind
        self.port = port
        self.path = path
        self.query = query
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
}
