/// The object storage a process may use: its endpoints by alias, and the buckets allowed on each.
///
/// Nothing is allowed by default. A bucket is used only when the operator allowed it as an
/// (endpoint, bucket) pair (`--allow-bucket`), on workers and on `run`/`process`/`enqueue` alike,
/// as file roots are. An endpoint's address is exempt from the private-network refusal because the
/// operator configured it here, never because a job named it.
public struct S3Configuration: Sendable, Hashable {
    /// The endpoints by alias.
    public var endpoints: [String: S3Endpoint]
    /// The buckets jobs may read and write.
    public var allowedBuckets: Set<S3Bucket>

    public init(endpoints: [S3Endpoint] = [], allowedBuckets: Set<S3Bucket> = []) {
        self.endpoints = Dictionary(endpoints.map { ($0.alias, $0) }, uniquingKeysWith: { _, last in last })
        self.allowedBuckets = allowedBuckets
    }

    /// True when no bucket is allowed: object storage is off.
    public var isEmpty: Bool { allowedBuckets.isEmpty }

    /// The endpoint to use for `address`, after checking its bucket is allowed and its endpoint
    /// configured (and DNS-safe when the endpoint uses virtual-hosted addressing).
    public func endpoint(for address: S3ObjectAddress) throws(S3Error) -> S3Endpoint {
        guard let endpoint = endpoints[address.bucket.endpoint] else {
            let known = endpoints.keys.sorted().joined(separator: ", ")
            throw S3Error(
                .refused,
                "\(address): no endpoint '\(address.bucket.endpoint)' is configured (\(known.isEmpty ? "none are" : "configured: \(known)"); add one with --s3-endpoint)"
            )
        }
        guard allowedBuckets.contains(address.bucket) else {
            throw S3Error(.refused, "\(address): bucket '\(address.bucket)' is not allowed (allow it with --allow-bucket \(address.bucket))")
        }
        if endpoint.addressing == .virtualHosted && !address.bucket.isDNSSafe {
            throw S3Error(
                .refused,
                "\(address): '\(address.bucket.name)' cannot go in a host name; give endpoint '\(endpoint.alias)' path addressing")
        }
        return endpoint
    }
}
