/// The requests a source provider and a listing make of one endpoint: `S3Client` in production; a
/// test may wrap it to count requests (a refused source must make none).
public protocol S3ObjectReading: Sendable {
    /// The object's bytes and ETag; `tooLarge` past `maxBytes`.
    func getObject(bucket: String, key: String, maxBytes: Int) async throws(S3Error) -> S3Object
    /// The object's ETag and size, without its bytes.
    func headObject(bucket: String, key: String) async throws(S3Error) -> S3ObjectHead
    /// One page of `ListObjectsV2` under `prefix`.
    func listObjects(bucket: String, prefix: String, continuationToken: String?, maxKeys: Int) async throws(S3Error) -> S3ListPage
}

extension S3Client: S3ObjectReading {}
