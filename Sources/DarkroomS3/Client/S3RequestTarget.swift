/// Where a request goes: the `Host` header and the raw path, by the endpoint's addressing style.
///
/// Path style: `http://10.1.2.3:9000/bucket/key`. Virtual-hosted: `https://bucket.s3.example.com/key`.
/// The key goes into the path literally, each byte outside the unreserved set percent-encoded
/// (`SigV4Encoding`), so the path sent is the path signed and S3 reads the key back exactly.
struct S3RequestTarget: Sendable, Equatable {
    /// `http` or `https`.
    var scheme: String
    /// The `Host` header: the endpoint's host (and port, when the URL has one), after the bucket
    /// in virtual-hosted style.
    var host: String
    /// The raw path: `/bucket/key`, `/bucket` (path style) or `/key`, `/` (virtual-hosted).
    var path: String

    init(endpoint: S3Endpoint, bucket: String, key: String?) throws(S3Error) {
        let (scheme, authority) = try Self.origin(of: endpoint)
        self.scheme = scheme
        switch endpoint.addressing {
        case .path:
            host = authority
            path = "/" + bucket + (key.map { "/" + $0 } ?? "")
        case .virtualHosted:
            host = bucket + "." + authority
            path = "/" + (key ?? "")
        }
    }

    /// The URL to send: the encoded path, then the canonical query (the same text the signature
    /// covers).
    func url(query: [(name: String, value: String)]) -> String {
        let encodedQuery = SigV4Encoding.canonicalQuery(query)
        return scheme + "://" + host + SigV4Encoding.canonicalPath(path, rule: .s3) + (encodedQuery.isEmpty ? "" : "?" + encodedQuery)
    }

    /// The scheme and authority of the endpoint's URL, which may end in `/` but has no other path,
    /// no query and no user information.
    static func origin(of endpoint: S3Endpoint) throws(S3Error) -> (scheme: String, authority: String) {
        let url = endpoint.url
        guard let separator = url.range(of: "://") else { throw badURL(endpoint, "has no scheme") }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { throw badURL(endpoint, "is not http or https") }
        var authority = Substring(url[separator.upperBound...])
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        guard !authority.isEmpty,
            !authority.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0 == "@" || $0.isWhitespace })
        else { throw badURL(endpoint, "must be just a scheme, a host and an optional port") }
        return (scheme, authority.lowercased())
    }

    private static func badURL(_ endpoint: S3Endpoint, _ problem: String) -> S3Error {
        S3Error(
            .refused,
            "endpoint '\(endpoint.alias)': the URL '\(endpoint.url)' \(problem) (write https://HOST[:PORT] or http://HOST[:PORT])")
    }
}
