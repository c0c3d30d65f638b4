extension FilePath {
    /// The path a `file` reference names: a bare path as written, or the path of a `file:` URL
    /// (`file:///abs/path`, `file://localhost/abs/path` or `file:/abs/path`) percent-decoded.
    ///
    /// A URL naming another host, a relative URL, a query or fragment (`?`, `#`: percent-encode
    /// them as `%3F`, `%23` when they are part of a file name), an empty path or a NUL byte are
    /// refused as `.invalid`.
    static func named(by reference: SourceReference) throws(SourceError) -> FilePath {
        func invalid(_ message: String) -> SourceError { SourceError(.invalid, source: reference.raw, message) }
        if reference.isBarePath {
            guard !reference.raw.isEmpty else { throw invalid("the file path is empty") }
            guard !reference.raw.utf8.contains(0) else { throw invalid("the file path contains a NUL byte") }
            return FilePath(reference.raw)
        }
        guard reference.scheme == "file", let colon = reference.raw.firstIndex(of: ":") else {
            throw invalid("not a file path or file: URL")
        }
        var rest = reference.raw[reference.raw.index(after: colon)...]
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
            let host = rest[..<authorityEnd]
            guard host.isEmpty || host.lowercased() == "localhost" else {
                throw invalid("file: URLs naming another host ('\(host)') are not supported; use file:///path")
            }
            rest = rest[authorityEnd...]
        }
        guard rest.hasPrefix("/") else {
            throw invalid("a file: URL must name an absolute path, as in file:///images/photo.jpg")
        }
        if let special = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            throw invalid(
                "a file: URL may not have a query or fragment ('\(rest[special])'); "
                    + "percent-encode '?' as %3F and '#' as %23 when they are part of the file name")
        }
        let decoded: [UInt8]
        do throws(PercentDecodingError) { decoded = try PercentDecoding.decode(rest) } catch {
            throw invalid("'%' at offset \(error.offset) of the path is not followed by two hexadecimal digits")
        }
        guard !decoded.contains(0) else { throw invalid("the file path contains a NUL byte (%00)") }
        return FilePath(decoded)
    }
}
