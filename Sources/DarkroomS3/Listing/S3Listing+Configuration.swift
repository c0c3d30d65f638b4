import DarkroomSources
import DarkroomSystem

extension S3Listing {
    /// The listing of the prefix or glob `text` (`S3KeyPattern`) through the endpoint
    /// `configuration` gives its bucket: the one construction `darkroom enqueue`, `run` and the
    /// HTTP job API share, so each refuses a bucket that is not allowed (`--allow-bucket`) alike,
    /// before anything is listed. Throws `S3Error` (`refused`: not a pattern, a `..` segment, a
    /// bucket not allowed or an endpoint not configured).
    public init(
        _ text: String, configuration: S3Configuration, pool: BlockingWorkPool = HTTPProvider.sharedPool, maxKeys: Int = 1000
    ) throws(S3Error) {
        let pattern = try S3KeyPattern(parsing: text)
        let endpoint = try configuration.endpoint(for: S3ObjectAddress(bucket: pattern.bucket, key: pattern.listPrefix))
        self.init(pattern: pattern, client: S3Client(endpoint: endpoint, pool: pool), maxKeys: maxKeys)
    }
}

extension S3KeyPattern {
    /// The literal directory every object the pattern lists is under: `s3://BUCKET/` and the
    /// list prefix up to its last `/` (`s3://uploads/2026/11/` for `s3://uploads/2026/11/*.jpg`,
    /// `s3://uploads/2026/` for `s3://uploads/2026/1*`). What an API key's source grant must
    /// cover before a pattern is listed for it: a grant of `s3://uploads/2026/` covers every key
    /// a pattern under that directory can match, whereas the bare prefix `2026` would also match
    /// `2026-private/…`.
    public var literalDirectory: String {
        let directory = listPrefix.lastIndex(of: "/").map { String(listPrefix[...$0]) } ?? ""
        return "s3://\(bucket)/\(directory)"
    }
}
