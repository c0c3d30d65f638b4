/// An object, or a key prefix, in a bucket: what `s3://[ALIAS@]BUCKET/KEY` names.
///
/// The key is everything after the bucket's `/`, taken literally: no percent-decoding (keys may
/// hold `%`), and `?` and `#` are part of it, as with the AWS CLI's `s3://` paths. Keys are refused
/// when they could mean another object once a client or server normalises them: `.` or `..`
/// segments (libcurl and some servers squash them) and control characters. Empty segments
/// (`a//b`) are kept, since S3 keeps them.
public struct S3ObjectAddress: Sendable, Hashable, CustomStringConvertible {
    public var bucket: S3Bucket
    /// The object's key, or a prefix (possibly empty) when the address names a listing.
    public var key: String

    public init(bucket: S3Bucket, key: String) {
        self.bucket = bucket
        self.key = key
    }

    /// `s3://ALIAS@bucket/key`, or `s3://bucket/key` on the default endpoint.
    public var description: String { "s3://\(bucket)/\(key)" }

    /// Parses `s3://[ALIAS@]BUCKET[/KEY]` (the scheme in any case). An empty key is allowed only
    /// when `allowEmptyKey` (a prefix for listing); an object needs one.
    public static func parse(_ text: String, allowEmptyKey: Bool = false) throws(S3Error) -> S3ObjectAddress {
        let scheme = "s3://"
        guard text.utf8.count > scheme.utf8.count, text.prefix(5).lowercased() == scheme else {
            throw S3Error(.refused, "'\(text)' is not an s3:// address: write s3://BUCKET/KEY or s3://ALIAS@BUCKET/KEY")
        }
        let rest = text.dropFirst(5)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = String(rest[..<slash])
        let key = slash < rest.endIndex ? String(rest[rest.index(after: slash)...]) : ""
        guard let bucket = S3Bucket(parsing: authority) else {
            throw S3Error(
                .refused,
                "'\(text)': '\(authority)' is not a bucket (letters, digits, '.', '-', '_'), optionally after an endpoint alias and '@'"
            )
        }
        if key.isEmpty && !allowEmptyKey {
            throw S3Error(.refused, "'\(text)' names a bucket but no object: write s3://\(bucket)/KEY")
        }
        if let problem = keyProblem(key) {
            throw S3Error(.refused, "'\(text)': the key \(problem)")
        }
        return S3ObjectAddress(bucket: bucket, key: key)
    }

    /// Why `key` is refused (a phrase for a message), or nil when it is fine.
    public static func keyProblem(_ key: String) -> String? {
        if key.utf8.count > 1024 { return "is longer than 1024 bytes, S3's limit" }
        if key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "holds a control character"
        }
        if key.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." }) {
            return "has a '.' or '..' segment, which clients and servers may resolve to another key"
        }
        return nil
    }
}
