import DarkroomOutput
import DarkroomSystem

/// Object storage as an `OutputSink`: a destination is `s3://[ALIAS@]BUCKET/PREFIX/`, an output
/// the object under the prefix and its name (`s3://thumbs/2026/` + `cat.webp` →
/// `2026/cat.webp`; a prefix without a trailing `/` gets one, as a directory would). Only
/// buckets the configuration allows on a configured endpoint are accepted (`output.not-allowed`
/// otherwise, from `prepare`, before any work).
///
/// How it keeps the `OutputSink` contract (docs/object-storage.md#outputs):
/// - **Durable and atomic**: S3 answers a PUT or a completed multipart upload once the object is
///   stored whole; readers see the old object or the new one. Each request carries `Content-MD5`
///   (each part too), so the service refuses a body corrupted on the way.
/// - **Same bytes** (a redelivered job): with `.refuse`, a HEAD finds the object and its checksum
///   (`S3OutputChecksums`) equal, and nothing is uploaded again; with `.replace`, the same bytes
///   are written over it. Either way one object, the same bytes, the same ETag.
/// - **Different bytes** under `.refuse`: `output.taken`, naming the owner from the object's
///   `darkroom-owner` metadata. The HEAD and the write are two requests, so the write is
///   conditional (`If-None-Match: *`, `S3SinkOptions.conditionalWrites`): of two writers racing
///   for one key, the service lets one in.
/// - **Large outputs** (from `S3SinkOptions.multipartThreshold`) go up in parts; a failure aborts
///   the upload, an earlier attempt's orphan for the same key is aborted before a new one, and
///   `sweepUploads` aborts the ones killed workers left.
///
/// The output's `StoredOutput.location` is its `s3://` URL and `etag` the service's ETag.
public struct S3Sink: OutputSink {
    /// The endpoints and allowed buckets.
    public let configuration: S3Configuration
    public let options: S3SinkOptions
    let stores: [String: any S3OutputStore]

    /// A sink writing through `stores`, one per endpoint alias (tests wrap clients here).
    public init(configuration: S3Configuration, stores: [String: any S3OutputStore], options: S3SinkOptions = .init()) {
        self.configuration = configuration
        self.stores = stores
        self.options = options
    }

    /// A sink with an `S3Client` per configured endpoint, its blocking requests on `pool`.
    public init(configuration: S3Configuration, pool: BlockingWorkPool, options: S3SinkOptions = .init(), limits: S3TransferLimits = .init()) {
        var stores: [String: any S3OutputStore] = [:]
        for (alias, endpoint) in configuration.endpoints {
            stores[alias] = S3Client(endpoint: endpoint, pool: pool, limits: limits)
        }
        self.init(configuration: configuration, stores: stores, options: options)
    }

    /// Where a destination's outputs go.
    struct Target {
        var store: any S3OutputStore
        var bucket: S3Bucket
        /// Empty, or ending with `/`.
        var prefix: String

        func location(of key: String) -> String { S3ObjectAddress(bucket: bucket, key: key).description }
    }

    public func prepare(_ destination: String) async throws(OutputError) {
        _ = try target(destination)
    }

    public func store(
        _ bytes: [UInt8], named name: String, in destination: String, owner: OutputOwner?, onConflict: OutputConflict
    ) async throws(OutputError) -> StoredOutput {
        let target = try target(destination)
        guard OutputName.isValid(name) else { throw .badName(name) }
        let key = target.prefix + name
        let location = target.location(of: key)
        if let problem = S3ObjectAddress.keyProblem(key) { throw OutputError(.notAllowed, "\(location) refused: the key \(problem)") }
        let sha256 = StoredOutput.sha256(of: bytes)
        var metadata = [S3OutputChecksums.sha256Key: sha256]
        if let owner { metadata[S3OutputOwnerMetadata.key] = S3OutputOwnerMetadata.value(owner) }
        let headers = S3OutputHeaders(contentType: OutputMediaType.of(name: name), cacheControl: options.cacheControl, metadata: metadata)
        let write = S3OutputWrite(target: target, key: key, location: location, bytes: bytes, sha256: sha256, headers: headers, options: options)

        if onConflict == .refuse, let existing = try await write.head(denialIsUnknown: true) {
            return try write.settle(with: existing)
        }
        do throws(OutputError) {
            let etag = try await write.upload(onlyIfAbsent: onConflict == .refuse && options.conditionalWrites)
            return StoredOutput(location: location, byteCount: bytes.count, sha256: sha256, etag: etag)
        } catch  where error.code == .taken {
            // Another writer took the key between the HEAD and the write: its bytes may be these.
            guard let existing = try await write.head() else {
                throw OutputError(.io, "\(location): another writer's object vanished while this one was refused; the job is retried")
            }
            return try write.settle(with: existing)
        }
    }

    /// The target of `destination`, after checking its endpoint is configured and its bucket allowed.
    func target(_ destination: String) throws(OutputError) -> Target {
        let address: S3ObjectAddress
        let endpoint: S3Endpoint
        do throws(S3Error) {
            address = try S3ObjectAddress.parse(destination, allowEmptyKey: true)
            endpoint = try configuration.endpoint(for: address)
        } catch {
            throw OutputError(.notAllowed, "output destination '\(destination)' refused: \(error.message)")
        }
        guard let store = stores[endpoint.alias] else {
            throw OutputError(.notAllowed, "output destination '\(destination)' refused: endpoint '\(endpoint.alias)' has no client")
        }
        let prefix = address.key.isEmpty || address.key.hasSuffix("/") ? address.key : address.key + "/"
        return Target(store: store, bucket: address.bucket, prefix: prefix)
    }
}
