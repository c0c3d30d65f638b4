import DarkroomCore

/// The bytes of a source and what is known about where they came from.
public struct FetchedSource: Sendable {
    public var bytes: [UInt8]
    /// The key caches store originals under: stable for the same content location (the URL
    /// after normalisation, or `file://` + the resolved path + size + modification time, so an
    /// edited file is a new original).
    public var cacheKey: String
    /// The URL the bytes finally came from, after redirects.
    public var finalLocation: String
    /// `Content-Type` for HTTP, the media type for `data:`; nil for files.
    public var contentType: String?

    public init(bytes: [UInt8], cacheKey: String, finalLocation: String, contentType: String? = nil) {
        self.bytes = bytes
        self.cacheKey = cacheKey
        self.finalLocation = finalLocation
        self.contentType = contentType
    }

    /// The bytes as an `EncodedImage` named after `reference`.
    public func encodedImage(named reference: SourceReference) -> EncodedImage {
        EncodedImage(bytes: bytes, sourceName: reference.description)
    }
}

/// Fetches sources of some schemes (Kingfisher's `ImageDataProvider`, by scheme). Providers are
/// registered in a `ProviderRegistry`, so a plugin can add a scheme.
public protocol DataProviding: Sendable {
    /// The schemes handled, lower-case (`["http", "https"]`).
    var schemes: Set<String> { get }

    /// The key the source's original is cached under, computed without fetching when possible
    /// (nil when it cannot be known before fetching, e.g. a file that must be stat'ed is fine,
    /// but providers that cannot tell return nil and the fetched key is used).
    func cacheKey(for reference: SourceReference, policy: SourcePolicy) throws(SourceError) -> String?

    /// Fetches the bytes, enforcing `policy`. Blocking work (libcurl, file reads) must not run on
    /// the cooperative pool: providers hop to their own threads.
    func fetch(_ reference: SourceReference, policy: SourcePolicy) async throws(SourceError) -> FetchedSource
}
