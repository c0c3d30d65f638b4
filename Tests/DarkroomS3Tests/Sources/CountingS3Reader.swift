import DarkroomS3
import DarkroomSystem

/// The real client, counting the requests it is asked to make (a refused source must make none;
/// a pinned cache hit none; fleet-wide single flight one GET).
final class CountingS3Reader: S3ObjectReading {
    let inner: any S3ObjectReading
    private let counts = Locked([String: Int]())

    init(_ inner: any S3ObjectReading) { self.inner = inner }

    /// Requests by kind: `get`, `head`, `list`.
    func count(_ kind: String) -> Int { counts.withLock { $0[kind] ?? 0 } }
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }

    private func note(_ kind: String) { counts.withLock { $0[kind, default: 0] += 1 } }

    func getObject(bucket: String, key: String, maxBytes: Int) async throws(S3Error) -> S3Object {
        note("get")
        return try await inner.getObject(bucket: bucket, key: key, maxBytes: maxBytes)
    }

    func headObject(bucket: String, key: String) async throws(S3Error) -> S3ObjectHead {
        note("head")
        return try await inner.headObject(bucket: bucket, key: key)
    }

    func listObjects(bucket: String, prefix: String, continuationToken: String?, maxKeys: Int) async throws(S3Error) -> S3ListPage {
        note("list")
        return try await inner.listObjects(bucket: bucket, prefix: prefix, continuationToken: continuationToken, maxKeys: maxKeys)
    }
}
