/// What `S3Sink` asks of object storage: S3's object and multipart calls, with the user metadata
/// and the conditional write an output needs. `S3Client` is one (`S3Client+OutputStore.swift`);
/// tests wrap one to make a call fail at a chosen moment.
///
/// Errors are the client's `S3Error`s; `S3Sink` maps them onto `OutputError` codes.
public protocol S3OutputStore: Sendable {
    /// The object's ETag, size and user metadata; nil when there is no object under `key`.
    func head(bucket: String, key: String) async throws(S3Error) -> S3OutputHead?

    /// One PUT (with `Content-MD5`); with `onlyIfAbsent`, `If-None-Match: *`, so the service
    /// refuses it (`S3Error.isPreconditionFailed`) when the key holds an object. Returns the ETag.
    func put(bucket: String, key: String, bytes: [UInt8], headers: S3OutputHeaders, onlyIfAbsent: Bool) async throws(S3Error) -> String

    /// Starts a multipart upload; returns its id.
    func createUpload(bucket: String, key: String, headers: S3OutputHeaders) async throws(S3Error) -> String

    /// Uploads part `number` (1-based, with `Content-MD5`).
    func uploadPart(bucket: String, key: String, uploadID: String, number: Int, bytes: [UInt8]) async throws(S3Error) -> S3CompletedPart

    /// Completes an upload (with `If-None-Match: *` when `onlyIfAbsent`); returns the object's ETag.
    func completeUpload(
        bucket: String, key: String, uploadID: String, parts: [S3CompletedPart], onlyIfAbsent: Bool
    ) async throws(S3Error) -> String

    /// Aborts an upload, discarding its parts.
    func abortUpload(bucket: String, key: String, uploadID: String) async throws(S3Error)

    /// The uploads in progress under `prefix`, every page.
    func listUploads(bucket: String, prefix: String) async throws(S3Error) -> [S3MultipartUpload]
}

/// The headers an output is written with.
public struct S3OutputHeaders: Sendable, Hashable {
    /// `Content-Type`, from the output name's extension (`OutputMediaType`).
    public var contentType: String?
    /// `Cache-Control` (`S3SinkOptions.cacheControl`); nil sends none.
    public var cacheControl: String?
    /// User metadata, sent as `x-amz-meta-<name>` (lower-case names, ASCII values).
    public var metadata: [String: String]

    public init(contentType: String? = nil, cacheControl: String? = nil, metadata: [String: String] = [:]) {
        self.contentType = contentType
        self.cacheControl = cacheControl
        self.metadata = metadata
    }
}

/// What a HEAD tells of a stored object.
public struct S3OutputHead: Sendable, Hashable {
    /// Without quotes.
    public var etag: String
    public var size: Int
    /// User metadata by lower-case name without `x-amz-meta-`; empty when the client cannot read it.
    public var metadata: [String: String]

    public init(etag: String, size: Int, metadata: [String: String] = [:]) {
        self.etag = etag
        self.size = size
        self.metadata = metadata
    }
}

extension S3Error {
    /// A conditional write refused because the key holds an object: 412 `PreconditionFailed`, or
    /// 409 `ConditionalRequestConflict` (AWS, when another conditional write to the key is in
    /// flight).
    public var isPreconditionFailed: Bool {
        status == 412 || serviceCode == "PreconditionFailed" || serviceCode == "ConditionalRequestConflict"
    }
}
