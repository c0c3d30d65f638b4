/// An `s3://` source as a job names it: an object, and the ETag it had when it was listed, if it
/// was (`s3://[ALIAS@]BUCKET[;etag=ETAG]/KEY`).
///
/// The ETag goes in the authority because the key is literal (`?` and `#` are part of keys), and
/// bucket names and aliases cannot hold `;` or `=`: `s3://uploads;etag=9b2c…/2026/a.jpg`. A pinned
/// source's cache identity is known without a request, so a cache hit costs no S3 request.
public struct S3SourceAddress: Sendable, Hashable, CustomStringConvertible {
    public var object: S3ObjectAddress
    /// The ETag recorded when the object was listed (without quotes); nil when not listed.
    public var etag: String?

    public init(object: S3ObjectAddress, etag: String? = nil) {
        self.object = object
        self.etag = etag.flatMap { Self.isPinnable($0) ? $0 : nil }
    }

    /// `s3://[ALIAS@]BUCKET[;etag=ETAG]/KEY`.
    public var description: String {
        guard let etag else { return object.description }
        return "s3://\(object.bucket);etag=\(etag)/\(object.key)"
    }

    /// The original's cache identity: `s3://ALIAS@BUCKET/KEY#ETAG` (the alias always written, so
    /// the default endpoint's buckets cannot collide with a named one's).
    public static func identity(_ object: S3ObjectAddress, etag: String) -> String {
        "s3://\(object.bucket.endpoint)@\(object.bucket.name)/\(object.key)#\(etag)"
    }

    /// Parses `s3://[ALIAS@]BUCKET[;etag=ETAG]/KEY` (see `S3ObjectAddress.parse` for the rest).
    public static func parse(_ text: String) throws(S3Error) -> S3SourceAddress {
        guard text.utf8.count > 5, text.prefix(5).lowercased() == "s3://" else {
            return S3SourceAddress(object: try S3ObjectAddress.parse(text))
        }
        let rest = text.dropFirst(5)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        guard let semicolon = rest[..<slash].firstIndex(of: ";") else {
            return S3SourceAddress(object: try S3ObjectAddress.parse(text))
        }
        let parameter = rest[rest.index(after: semicolon)..<slash]
        guard parameter.hasPrefix("etag="), case let etag = String(parameter.dropFirst(5)), isPinnable(etag) else {
            throw S3Error(.refused, "'\(text)': the only parameter after a bucket is ';etag=ETAG' (letters, digits, '-', '_', '.', ':')")
        }
        let object = try S3ObjectAddress.parse("s3://" + rest[..<semicolon] + rest[slash...])
        return S3SourceAddress(object: object, etag: etag)
    }

    /// Whether `etag` can be written into a source: 1 to 128 of ASCII letters, digits, `-`, `_`,
    /// `.` and `:` (S3's hex digests and `hex-N` multipart ETags; other services' are alike).
    public static func isPinnable(_ etag: String) -> Bool {
        (1...128).contains(etag.utf8.count)
            && etag.utf8.allSatisfy { byte in
                (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte)
                    || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x3A
            }
    }
}
