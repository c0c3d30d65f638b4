/// One S3-compatible service as the operator configured it, under an alias jobs name it by
/// (`s3://ALIAS@bucket/key`; `s3://bucket/key` is the alias `default`).
///
/// AWS, Cloudflare R2, MinIO, Ceph's RADOS Gateway and Google Cloud Storage's XML API differ only
/// in these fields (docs/object-storage.md has each one's settings).
public struct S3Endpoint: Sendable, Hashable {
    /// The alias of `s3://bucket/key` references that name none.
    public static let defaultAlias = "default"

    /// Lower-case letters, digits and `-`, 1 to 32 characters (`S3Endpoint.isValidAlias`).
    public var alias: String
    /// The service's base URL, `http` or `https`, without a path: `https://s3.eu-west-1.amazonaws.com`,
    /// `https://ACCOUNT.r2.cloudflarestorage.com`, `http://10.1.2.3:9000`.
    public var url: String
    /// The region requests are signed for: `us-east-1`, `auto` for R2, whatever MinIO or Ceph was
    /// configured with (`us-east-1` by default for both).
    public var region: String
    /// Bucket in the host name or in the path.
    public var addressing: S3Addressing
    /// Where the credentials requests are signed with come from: none (unsigned requests, a
    /// public bucket), a fixed key pair, or a resolver asked before each request (a credentials
    /// file read again when it changes, web identity).
    public var credentialsSource: S3CredentialsSource
    /// The fixed key pair requests are signed with; nil when requests go unsigned or the
    /// credentials are resolved per request (`credentialsSource`). Setting it makes them fixed.
    public var credentials: S3Credentials? {
        get { credentialsSource.fixedCredentials }
        set { credentialsSource = .fixed(newValue) }
    }
    /// A PEM bundle of extra certificate authorities to trust for this endpoint (a private CA);
    /// nil trusts the system's store. Verification is never turned off.
    public var caFile: String?

    public init(
        alias: String, url: String, region: String = "us-east-1", addressing: S3Addressing = .path,
        credentials: S3Credentials? = nil, caFile: String? = nil
    ) {
        self.alias = alias
        self.url = url
        self.region = region
        self.addressing = addressing
        credentialsSource = .fixed(credentials)
        self.caFile = caFile
    }

    /// Whether `alias` can name an endpoint: 1 to 32 of `a-z`, `0-9` and `-`.
    public static func isValidAlias(_ alias: String) -> Bool {
        (1...32).contains(alias.utf8.count)
            && alias.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }
}

/// Where the bucket goes in a request's URL.
public enum S3Addressing: String, Sendable, Hashable, CaseIterable {
    /// `https://endpoint/bucket/key`: MinIO's and Ceph's default, and the only form for bucket
    /// names that are not DNS labels.
    case path
    /// `https://bucket.endpoint/key`: AWS's preferred form (new AWS regions require it) and R2's.
    case virtualHosted = "virtual"
}
