/// A source or output as a grant sees it: its scheme, and for a path or a hierarchical URL its
/// parts, or why no prefix can vouch for it.
///
/// Prefixes are compared with parts, never as raw text, and only for targets in plain form: a URL
/// with user information (`https://images.example.com@evil/`), a backslash, an escaped `/`, `\`
/// or `.`, or a `.`/`..` segment, and a path that is relative or has `.`/`..` segments, match no
/// prefix (a scheme grant still covers them: the workers' own policy applies to every source).
/// Refusing odd forms instead of normalising them means a grant never depends on how a worker
/// would resolve one.
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
        let scheme = Self.scheme(of: text)
        guard let scheme else {
            self.init(scheme: "file", authority: "", pathText: text)
            return
        }
        let rest = text.dropFirst(scheme.count + 1)
        guard rest.hasPrefix("//") else {
            self.init(scheme: scheme, authority: "", path: nil, problem: "is not a scheme://host/path URL")
            return
        }
        let afterSlashes = rest.dropFirst(2)
        let authorityEnd = afterSlashes.firstIndex { "/?#".contains($0) } ?? afterSlashes.endIndex
        let authority = afterSlashes[..<authorityEnd].lowercased()
        let pathEnd = afterSlashes[authorityEnd...].firstIndex { "?#".contains($0) } ?? afterSlashes.endIndex
        let path = String(afterSlashes[authorityEnd..<pathEnd])
        if authority.contains("@") {
            self.init(scheme: scheme, authority: authority, path: nil, problem: "has user information before its host")
        } else if scheme == "file" {
            guard authority.isEmpty || authority == "localhost" else {
                self.init(scheme: scheme, authority: authority, path: nil, problem: "names a host in a file URL")
                return
            }
            guard !path.contains("%") else {
                self.init(scheme: scheme, authority: "", path: nil, problem: "has a %-escape in a file URL")
                return
            }
            self.init(scheme: scheme, authority: "", pathText: path)
        } else {
            self.init(scheme: scheme, authority: Self.withoutDefaultPort(authority, scheme: scheme), urlPath: path)
        }
    }

    private init(scheme: String, authority: String, path: String?, problem: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.problem = problem
    }

    /// A file path: absolute, without `.`/`..` segments or control characters.
    private init(scheme: String, authority: String, pathText: String) {
        let problem: String? =
            if !pathText.hasPrefix("/") { "is not an absolute path" } else { Self.segmentProblem(pathText) }
        self.init(scheme: scheme, authority: authority, path: problem == nil ? pathText : nil, problem: problem)
    }

    /// A URL's path: also without backslashes or escapes of `/`, `\` and `.`.
    private init(scheme: String, authority: String, urlPath: String) {
        var problem = Self.segmentProblem(urlPath)
        let lowered = urlPath.lowercased()
        if authority.isEmpty {
            problem = "has no host"
        } else if urlPath.contains("\\") || ["%2f", "%5c", "%2e"].contains(where: lowered.contains) {
            problem = "has a backslash or an escaped /, \\ or . in its path"
        }
        self.init(scheme: scheme, authority: authority, path: problem == nil ? urlPath : nil, problem: problem)
    }

    /// Whether this target's path is `prefix` or below it, at a segment boundary (`/images`
    /// covers `/images` and `/images/a.jpg`, not `/imagesX`). `prefix` has no trailing `/`,
    /// except the root.
    func isUnder(path prefix: String) -> Bool {
        guard let path else { return false }
        if prefix.isEmpty || prefix == "/" { return true }
        return path == prefix || path.hasPrefix(prefix + "/")
    }

    /// The lower-cased scheme of `text` (`https` of `HTTPS://…`), or nil for a path. A scheme is
    /// a letter then letters, digits, `+`, `-` or `.`, two characters at least (so `C:\x` is a path).
    static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon]
        guard name.count > 1, name.first?.isASCII == true, name.first?.isLetter == true,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return name.lowercased()
    }

    private static func segmentProblem(_ path: String) -> String? {
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "has a control character" }
        if path.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." }) {
            return "has a . or .. segment"
        }
        return nil
    }

    private static func withoutDefaultPort(_ authority: String, scheme: String) -> String {
        let defaults = ["http": ":80", "https": ":443"]
        guard let port = defaults[scheme], authority.hasSuffix(port) else { return authority }
        return String(authority.dropLast(port.count))
    }
}
