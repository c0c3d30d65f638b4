/// `SourcePolicy.allowedSourcePrefixes`, parsed: the URLs sources must start with.
///
/// A prefix is compared part by part with a parsed `SourceURL`, never as text: the scheme, host
/// and port must be equal (host case-insensitively, default ports filled in), and the path must
/// start with the prefix's path at a segment boundary (`/images` allows `/images` and
/// `/images/a.jpg` but not `/imagesX`). So `http://images.example.com@evil/` (refused for its user
/// information), `http://images.example.com.evil/` (another host) and
/// `http://images.example.com/images/../secret` (normalised to `/secret` first) do not pass.
public struct SourceAllowList: Sendable, Hashable {
    public struct Prefix: Sendable, Hashable, CustomStringConvertible {
        public let url: SourceURL
        /// The prefix as configured.
        public let text: String
        public var description: String { text }

        /// Whether `candidate` is under this prefix.
        public func matches(_ candidate: SourceURL) -> Bool {
            guard candidate.scheme == url.scheme, candidate.host == url.host,
                candidate.hostKind == url.hostKind, candidate.port == url.port
            else { return false }
            let prefixPath = url.path.utf8
            let path = candidate.path.utf8
            guard path.starts(with: prefixPath) else { return false }
            // At a segment boundary: the prefix ends with "/", or the path ends where it does or
            // continues with "/".
            return prefixPath.last == UInt8(ascii: "/") || path.count == prefixPath.count
                || path.dropFirst(prefixPath.count).first == UInt8(ascii: "/")
        }
    }

    /// The http(s) prefixes.
    public let prefixes: [Prefix]
    /// True when any prefix was configured, of any scheme: a list holding only a plugin scheme's
    /// prefixes (`acme://bucket/`, checked by that plugin's provider) allows no http(s) URL.
    private let restricts: Bool

    /// Parses the prefixes; one that is not an http(s) URL without user information, query or
    /// fragment is a configuration error — except a prefix of one of `pluginSchemes`
    /// (`acme://bucket/`), which is left to that plugin's provider to check.
    public init(_ texts: [String], pluginSchemes: Set<String> = []) throws(SourceURL.Problem) {
        var prefixes: [Prefix] = []
        restricts = !texts.isEmpty
        for text in texts {
            if let colon = text.firstIndex(of: ":"), pluginSchemes.contains(text[..<colon].lowercased()) { continue }
            let url: SourceURL
            do {
                url = try SourceURL(parsing: text)
            } catch {
                throw .invalid("cannot be checked: the allowed source prefix '\(text)' \(error.message)")
            }
            if url.query != nil || text.contains("#") {
                throw .invalid(
                    "cannot be checked: the allowed source prefix '\(text)' has a query or fragment; "
                        + "prefixes are scheme://host[:port]/path")
            }
            prefixes.append(Prefix(url: url, text: text))
        }
        self.prefixes = prefixes
    }

    /// True when no prefixes are configured: any public http(s) URL is allowed.
    public var isEmpty: Bool { !restricts }

    /// The first prefix `url` is under, or nil.
    public func prefix(matching url: SourceURL) -> Prefix? {
        prefixes.first { $0.matches(url) }
    }

    /// Checks `url` against the list and returns whether it was *named* by a prefix (which lets
    /// its host resolve to a private address). Throws `refused` for a URL outside a non-empty list.
    public func check(_ url: SourceURL) throws(SourceURL.Problem) -> Bool {
        guard !isEmpty else { return false }
        guard let prefix = prefix(matching: url) else {
            let list = prefixes.isEmpty ? "none for http(s)" : prefixes.map(\.text).joined(separator: ", ")
            throw .refused("is not under an allowed source prefix (\(list)); add one with --allow-source")
        }
        if prefix.url.path != "/" && url.pathHasEscapedSeparator {
            throw .refused(
                "has an escaped / or \\ (%2F, %5C) in its path, which a server may decode after "
                    + "the allowed prefix \(prefix.text) was checked")
        }
        return true
    }
}
