/// An object's bytes and what the service said about them.
public struct S3Object: Sendable {
    public var bytes: [UInt8]
    /// The ETag without its quotes.
    public var etag: String
    public var contentType: String?
    /// `Last-Modified` as the server sent it (an HTTP date).
    public var lastModified: String?

    public init(bytes: [UInt8], etag: String, contentType: String?, lastModified: String?) {
        self.bytes = bytes
        self.etag = etag
        self.contentType = contentType
        self.lastModified = lastModified
    }
}

/// What `HEAD` says about an object.
public struct S3ObjectHead: Sendable {
    public var etag: String
    public var size: Int
    public var contentType: String?

    public init(etag: String, size: Int, contentType: String?) {
        self.etag = etag
        self.size = size
        self.contentType = contentType
    }
}

/// One object of a listing.
public struct S3ListedObject: Sendable, Hashable {
    public var key: String
    public var size: Int
    public var etag: String

    public init(key: String, size: Int, etag: String) {
        self.key = key
        self.size = size
        self.etag = etag
    }
}

/// One page of `ListObjectsV2`; `nextContinuationToken` is nil on the last page.
public struct S3ListPage: Sendable {
    public var objects: [S3ListedObject]
    public var nextContinuationToken: String?

    public init(objects: [S3ListedObject], nextContinuationToken: String?) {
        self.objects = objects
        self.nextContinuationToken = nextContinuationToken
    }
}

/// A part of a multipart upload, as `CompleteMultipartUpload` names it.
public struct S3CompletedPart: Sendable, Hashable {
    /// 1 to 10,000.
    public var number: Int
    public var etag: String

    public init(number: Int, etag: String) {
        self.number = number
        self.etag = etag
    }
}

/// A multipart upload in progress (`ListMultipartUploads`).
public struct S3MultipartUpload: Sendable, Hashable {
    public var key: String
    public var uploadID: String
    /// ISO 8601 as the server sent it (`2026-11-27T21:00:00.000Z`).
    public var initiated: String
    /// `initiated` in seconds since 1970, when it could be read.
    public var initiatedEpochSeconds: Int?

    public init(key: String, uploadID: String, initiated: String, initiatedEpochSeconds: Int?) {
        self.key = key
        self.uploadID = uploadID
        self.initiated = initiated
        self.initiatedEpochSeconds = initiatedEpochSeconds
    }
}

/// Time and size limits of one request (mirrors SourcePolicy's: connect 5 s, total 30 s, low
/// speed 1024 B/s for 10 s).
public struct S3TransferLimits: Sendable, Hashable {
    public var connectTimeout: Double = 5
    public var totalTimeout: Double = 30
    /// A transfer slower than this for `lowSpeedSeconds` is abandoned (0: never).
    public var lowSpeedBytesPerSecond: Int = 1024
    public var lowSpeedSeconds: Double = 10
    public var userAgent: String = "Darkroom/0.1 (+image pipeline)"

    public init() {}
}
