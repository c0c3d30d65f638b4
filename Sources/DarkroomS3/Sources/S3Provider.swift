import DarkroomSources
import DarkroomSystem

/// Fetches `s3://[ALIAS@]BUCKET[;etag=ETAG]/KEY` sources from the configured endpoints, under the
/// source policy's size and time limits (docs/object-storage.md#sources).
///
/// - A bucket not allowed on its endpoint, an unknown alias or a key with `.`/`..` segments or
///   control characters is refused (`source.refused`) in `cacheKey(for:)`, so before any request
///   and before any cache is consulted.
/// - Identity includes the ETag (`S3SourceAddress.identity`), so a replaced object is fetched
///   again. A source pinned by a listing (`;etag=`) has its key without a request; an unpinned
///   one has none before fetching (`cacheKey` returns nil and the pipeline fetches first, keying
///   the original by the ETag the GET returned).
/// - A pinned source whose object changed since listing fails with `source.changed` rather than
///   caching the new bytes under the old identity.
public struct S3Provider: DataProviding {
    public var schemes: Set<String> { ["s3"] }
    public let configuration: S3Configuration
    /// Makes the client of one endpoint, with the limits of the fetch's policy.
    let makeClient: @Sendable (S3Endpoint, S3TransferLimits) -> any S3ObjectReading

    /// A provider whose requests run on `pool` (a network pool: threads that mostly wait).
    public init(configuration: S3Configuration, pool: BlockingWorkPool) {
        self.init(configuration: configuration) { endpoint, limits in S3Client(endpoint: endpoint, pool: pool, limits: limits) }
    }

    /// A provider whose clients `makeClient` makes (a test wraps the real client to count requests).
    public init(
        configuration: S3Configuration,
        makeClient: @escaping @Sendable (S3Endpoint, S3TransferLimits) -> any S3ObjectReading
    ) {
        self.configuration = configuration
        self.makeClient = makeClient
    }

    /// The factory the CLI registers beside the standard providers, on the pipeline's network pool.
    public static func factory(_ configuration: S3Configuration) -> ProviderFactory {
        ProviderFactory(schemes: ["s3"]) { pools in S3Provider(configuration: configuration, pool: pools.network) }
    }

    public func cacheKey(for reference: SourceReference, policy: SourcePolicy) throws(SourceError) -> String? {
        let (address, _) = try authorize(reference)
        return address.etag.map { S3SourceAddress.identity(address.object, etag: $0) }
    }

    public func fetch(_ reference: SourceReference, policy: SourcePolicy) async throws(SourceError) -> FetchedSource {
        let (address, endpoint) = try authorize(reference)
        let client = makeClient(endpoint, S3TransferLimits(policy))
        let object: S3Object
        do {
            object = try await client.getObject(bucket: address.object.bucket.name, key: address.object.key, maxBytes: policy.maxBytes)
        } catch {
            throw error.sourceError(for: reference.description)
        }
        if let pinned = address.etag, pinned != object.etag {
            throw SourceError(
                .changed, source: reference.description,
                "the object changed since it was listed (ETag \(pinned), now \(object.etag)); enqueue it again")
        }
        return FetchedSource(
            bytes: object.bytes, cacheKey: S3SourceAddress.identity(address.object, etag: object.etag),
            finalLocation: address.object.description, contentType: object.contentType)
    }

    /// The parsed source and its endpoint, or `source.refused` naming what is not allowed.
    private func authorize(_ reference: SourceReference) throws(SourceError) -> (S3SourceAddress, S3Endpoint) {
        do {
            let address = try S3SourceAddress.parse(reference.raw)
            return (address, try configuration.endpoint(for: address.object))
        } catch {
            throw error.sourceError(for: reference.description)
        }
    }
}

extension S3TransferLimits {
    /// The limits of `policy`, which every source provider obeys: the same connect, total and
    /// low-speed timeouts and `User-Agent` as an HTTP download.
    public init(_ policy: SourcePolicy) {
        self.init()
        connectTimeout = policy.connectTimeout
        totalTimeout = policy.totalTimeout
        lowSpeedBytesPerSecond = policy.lowSpeedBytesPerSecond
        lowSpeedSeconds = policy.lowSpeedSeconds
        userAgent = policy.userAgent
    }
}
