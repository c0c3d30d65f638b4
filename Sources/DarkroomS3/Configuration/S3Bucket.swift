/// A bucket on one endpoint. Bucket names are unique only per endpoint (`uploads` on MinIO is not
/// `uploads` on AWS), so buckets are allowed, and named in messages, as these pairs.
public struct S3Bucket: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The endpoint's alias (`S3Endpoint.alias`).
    public var endpoint: String
    public var name: String

    public init(endpoint: String, name: String) {
        self.endpoint = endpoint
        self.name = name
    }

    /// `ALIAS@bucket` (the form `--allow-bucket` takes), or `bucket` on the default endpoint.
    public var description: String { endpoint == S3Endpoint.defaultAlias ? name : "\(endpoint)@\(name)" }

    public static func < (lhs: S3Bucket, rhs: S3Bucket) -> Bool {
        (lhs.endpoint, lhs.name) < (rhs.endpoint, rhs.name)
    }

    /// Parses `ALIAS@bucket` or `bucket` (the default endpoint); nil when either part is invalid.
    public init?(parsing text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        let alias = parts.count == 2 ? String(parts[0]) : S3Endpoint.defaultAlias
        guard parts.count <= 2, let name = parts.last.map(String.init), S3Endpoint.isValidAlias(alias),
            Self.isValidName(name)
        else { return nil }
        self.init(endpoint: alias, name: name)
    }

    /// Whether `name` can be a bucket name here: 1 to 255 of letters, digits, `.`, `-` and `_`.
    /// Wider than AWS's rule (3 to 63, lower case, DNS-safe) because MinIO, Ceph and old AWS
    /// buckets allow more; virtual-hosted addressing needs a DNS-safe name (`isDNSSafe`).
    public static func isValidName(_ name: String) -> Bool {
        (1...255).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte)
                    || byte == 0x2E || byte == 0x2D || byte == 0x5F
            }
    }

    /// Whether the name can go in a host name (virtual-hosted addressing): 3 to 63 of lower-case
    /// letters, digits, `-` and `.`, starting and ending with a letter or digit.
    public var isDNSSafe: Bool {
        let bytes = Array(name.utf8)
        func alnum(_ b: UInt8) -> Bool { (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) }
        guard (3...63).contains(bytes.count), let first = bytes.first, let last = bytes.last, alnum(first), alnum(last)
        else { return false }
        return bytes.allSatisfy { alnum($0) || $0 == 0x2D || $0 == 0x2E }
    }
}
