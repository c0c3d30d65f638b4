/// A source or output as a grant sees it: its scheme, and for a path or a hierarchical URL its
/// parts, or why no prefix can vouch for it.
///
/// Prefixes are compared with parts, never as raw text, and only for targets in plain form: a URL
/// with user information (`https://images.example.com@evil/`), a backslash, an escaped `/`, `\`
/// or `.`, or a `.`/`..` segment, and a path that is relative or has `.`/`..` segments, match no
/// prefix (a scheme grant still covers them: the workers' own policy applies to every source).
/// Refusing odd forms instead of normalising them means a grant never depends on how a worker
/// would resolve one.
///
/// The text is read as UTF-8 bytes, as a URL parser and the file system read it: every delimiter
/// is the ASCII byte, even when a combining mark follows it (which would make `"/\u{301}"` one
/// `Character`, unequal to `/`), and paths are compared byte for byte, without Unicode
/// normalisation (two spellings of `café` are two directories on Linux). Only a URL's host is
/// lower-cased by Unicode's rules (ASCII ones on the fast path), as before.
struct GrantTarget: Sendable, Hashable {
    /// The lower-cased scheme; `file` for a bare path.
    let scheme: String
    /// For a URL, `host[:port]` lower-cased without the scheme's default port; "" for a path.
    let authority: String
    /// The path (a file's absolute path, or a URL's path before `?` and `#`), when usable.
    let path: String?
    /// Why `path` is nil: what keeps prefixes from matching.
    let problem: String?

    /// The target `text` names; a text without `scheme:` is a file path.
    init(_ text: String) {
        var text = text
        self = text.withUTF8 { Self.parse(GrantBytes($0)) }
    }

    private init(scheme: String, authority: String, path: String?, problem: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.problem = problem
    }

    private static func parse(_ text: GrantBytes) -> GrantTarget {
        guard let colon = text.schemeEnd() else { return file(scheme: "file", authority: "", path: text) }
        let scheme = text.lowercased(0..<colon)
        let slashes = colon + 1
        guard text.byte(at: slashes) == UInt8(ascii: "/"), text.byte(at: slashes + 1) == UInt8(ascii: "/") else {
            return GrantTarget(scheme: scheme, authority: "", path: nil, problem: "is not a scheme://host/path URL")
        }
        let hostStart = slashes + 2
        if scheme == "s3" { return s3(text, hostStart: hostStart) }
        let authorityEnd = text.firstIndex(from: hostStart, of: "/?#")
        let pathEnd = text.firstIndex(from: authorityEnd, of: "?#")
        let authority = text.lowercased(hostStart..<authorityEnd)
        let path = text.slice(authorityEnd..<pathEnd)
        if text.slice(hostStart..<authorityEnd).contains("@") {
            return GrantTarget(scheme: scheme, authority: authority, path: nil, problem: "has user information before its host")
        } else if scheme == "file" {
            guard authority.isEmpty || authority == "localhost" else {
                return GrantTarget(scheme: scheme, authority: authority, path: nil, problem: "names a host in a file URL")
            }
            guard !path.contains("%") else {
                return GrantTarget(scheme: scheme, authority: "", path: nil, problem: "has a %-escape in a file URL")
            }
            return file(scheme: scheme, authority: "", path: path)
        } else {
            return url(scheme: scheme, authority: withoutDefaultPort(authority, scheme: scheme), path: path)
        }
    }

    /// A file path: absolute, without `.`/`..` segments or control characters.
    private static func file(scheme: String, authority: String, path: GrantBytes) -> GrantTarget {
        let problem = path.byte(at: 0) == UInt8(ascii: "/") ? path.segmentProblem() : "is not an absolute path"
        return GrantTarget(scheme: scheme, authority: authority, path: problem == nil ? path.string() : nil, problem: problem)
    }

    /// An object-storage address, `s3://[ALIAS@]BUCKET[;etag=ETAG]/KEY` (docs/object-storage.md):
    /// the authority is the bucket with its endpoint alias (`@` is no user information here),
    /// without the ETag a listed source is pinned to, and byte for byte (bucket names may hold
    /// capitals); the key is literal — `?`, `#` and `%` are characters of keys, not a query, a
    /// fragment or escapes — so the path runs to the end. Otherwise a key `in?x/…` would be
    /// judged as the path `/in`.
    private static func s3(_ text: GrantBytes, hostStart: Int) -> GrantTarget {
        let authorityEnd = text.firstIndex(from: hostStart, of: "/")
        let bucketEnd = text.firstIndex(from: hostStart, of: ";/")
        let authority = text.slice(hostStart..<bucketEnd).string()
        let path = text.slice(authorityEnd..<text.count)
        let problem = authority.isEmpty ? "has no bucket" : path.segmentProblem()
        return GrantTarget(scheme: "s3", authority: authority, path: problem == nil ? path.string() : nil, problem: problem)
    }

    /// A URL's path: also without backslashes or escapes of `/`, `\` and `.`.
    private static func url(scheme: String, authority: String, path: GrantBytes) -> GrantTarget {
        var problem = path.segmentProblem()
        if authority.isEmpty {
            problem = "has no host"
        } else if path.contains("\\") || path.hasEscapedSeparator() {
            problem = "has a backslash or an escaped /, \\ or . in its path"
        }
        return GrantTarget(scheme: scheme, authority: authority, path: problem == nil ? path.string() : nil, problem: problem)
    }

    /// Whether this target's path is `prefix` or below it, at a segment boundary (`/images`
    /// covers `/images` and `/images/a.jpg`, not `/imagesX`), byte for byte. `prefix` has no
    /// trailing `/`, except the root.
    func isUnder(path prefix: String) -> Bool {
        guard let path else { return false }
        if prefix.isEmpty || prefix == "/" { return true }
        let bytes = path.utf8
        let prefixBytes = prefix.utf8
        guard bytes.starts(with: prefixBytes) else { return false }
        let next = bytes.index(bytes.startIndex, offsetBy: prefixBytes.count)
        return next == bytes.endIndex || bytes[next] == UInt8(ascii: "/")
    }

    /// The lower-cased scheme of `text` (`https` of `HTTPS://…`), or nil for a path. A scheme is
    /// an ASCII letter then letters, digits, `+`, `-` or `.`, before the first `:`, two characters
    /// at least (so `C:\x` is a path).
    static func scheme(of text: String) -> String? {
        var text = text
        return text.withUTF8 { buffer in
            let bytes = GrantBytes(buffer)
            return bytes.schemeEnd().map { bytes.lowercased(0..<$0) }
        }
    }

    private static func withoutDefaultPort(_ authority: String, scheme: String) -> String {
        let port =
            switch scheme {
            case "http": ":80"
            case "https": ":443"
            default: ""
            }
        guard !port.isEmpty, authority.utf8.reversed().starts(with: port.utf8.reversed()) else { return authority }
        return String(decoding: authority.utf8.dropLast(port.utf8.count), as: UTF8.self)
    }
}
