import Crypto
import DarkroomSystem

/// An output an `OutputSink` stored: where it is, how big, and its checksum, as the job's
/// `succeeded` event reports them.
public struct StoredOutput: Sendable, Hashable {
    /// Where a person or program can open it: an absolute path on the volume, the object's
    /// `s3://[ALIAS@]BUCKET/KEY` URL in object storage.
    public var location: String
    /// Its size in bytes.
    public var byteCount: Int
    /// The SHA-256 of its bytes, 64 lower-case hexadecimal digits.
    public var sha256: String
    /// The object's ETag as the object store answered it, without quotes; nil for the volume.
    public var etag: String?

    public init(location: String, byteCount: Int, sha256: String, etag: String? = nil) {
        self.location = location
        self.byteCount = byteCount
        self.sha256 = sha256
        self.etag = etag
    }

    /// The record for `bytes` stored at `location`, its checksum computed here.
    public init(location: String, bytes: [UInt8], etag: String? = nil) {
        self.init(location: location, byteCount: bytes.count, sha256: Self.sha256(of: bytes), etag: etag)
    }

    /// The SHA-256 of `bytes` in lower-case hexadecimal.
    public static func sha256(of bytes: [UInt8]) -> String {
        HexDigits.lowercase(SHA256.hash(data: bytes))
    }
}
