/// One entry of a key's source or output grants, parsed: a whole scheme (`https:`), a URL prefix
/// (`https://images.example.com/uploads/`) or a directory (`/srv/uploads`, or `file:///srv/uploads`).
/// Output grants are directories or object-storage prefixes (`s3://thumbs/api/`).
struct GrantPrefix: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// Every target of this scheme.
        case scheme(String)
        /// Files at or under this absolute path (no trailing `/`, except the root).
        case directory(String)
        /// URLs of this scheme and authority at or under this path (no trailing `/`).
        case url(scheme: String, authority: String, path: String)
    }

    let kind: Kind
    /// The entry as granted.
    let text: String

    /// Parses a grant; the error says what form it should have.
    init(_ text: String, directoriesOnly: Bool = false) throws(APIKeyError) {
        self.text = text
        let scheme = GrantTarget.scheme(of: text)
        if !directoriesOnly, let scheme, text.utf8.count == scheme.utf8.count + 1 {
            kind = .scheme(scheme)
            return
        }
        let isURL = scheme.map { text.dropFirst($0.count + 1).hasPrefix("//") } ?? false
        guard text.hasPrefix("/") || isURL else {
            throw Self.invalid(text, directoriesOnly: directoriesOnly)
        }
        if text.contains("?") || text.contains("#") {
            throw APIKeyError(.invalid, "the grant '\(text.prefix(200))' has a query or fragment; prefixes are scheme://host[:port]/path")
        }
        let target = GrantTarget(text)
        guard let path = target.path else {
            throw APIKeyError(.invalid, "the grant '\(text.prefix(200))' \(target.problem ?? "cannot be read"); write it in plain form")
        }
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        if target.scheme == "file" {
            kind = .directory(trimmed)
        } else if directoriesOnly && target.scheme != "s3" {
            // Outputs go to directories, or to object storage (`s3://bucket/prefix/`).
            throw Self.invalid(text, directoriesOnly: true)
        } else {
            kind = .url(scheme: target.scheme, authority: target.authority, path: trimmed == "/" ? "" : trimmed)
        }
    }

    /// Whether this entry covers `target`.
    func covers(_ target: GrantTarget) -> Bool {
        switch kind {
        case .scheme(let scheme):
            return target.scheme == scheme
        case .directory(let directory):
            return target.scheme == "file" && target.isUnder(path: directory)
        case .url(let scheme, let authority, let path):
            return target.scheme == scheme && target.authority == authority && target.isUnder(path: path)
        }
    }

    /// Whether this entry grants file sources at all (a `file:` scheme or a directory).
    var grantsFiles: Bool {
        switch kind {
        case .scheme(let scheme): scheme == "file"
        case .directory: true
        case .url: false
        }
    }

    private static func invalid(_ text: String, directoriesOnly: Bool) -> APIKeyError {
        let forms =
            directoriesOnly
            ? "an absolute directory path (/srv/outputs/api) or a bucket prefix (s3://thumbs/api/)"
            : "a scheme (https:), a URL prefix (https://images.example.com/uploads/) or an absolute directory path (/srv/uploads)"
        return APIKeyError(.invalid, "the grant '\(text.prefix(200))' is not \(forms)")
    }
}
