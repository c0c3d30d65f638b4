import DarkroomSystem

/// A client for one S3-compatible endpoint: signed requests (SigV4) through libcurl on a
/// `BlockingWorkPool`, no redirects followed, TLS always verified, every request within
/// `S3TransferLimits`. The operations are in `S3Client+Objects`, `+Listing` and `+Multipart`.
///
/// The endpoint is operator-configured, so its address is connected to whatever its kind (no
/// private-network refusal here); which buckets jobs may use is `S3Configuration`'s business.
public struct S3Client: Sendable {
    public let endpoint: S3Endpoint
    let pool: BlockingWorkPool
    let limits: S3TransferLimits

    public init(endpoint: S3Endpoint, pool: BlockingWorkPool, limits: S3TransferLimits = .init()) {
        self.endpoint = endpoint
        self.pool = pool
        self.limits = limits
    }

    /// What one operation asks, for building its request and naming it in messages.
    struct Call: Sendable {
        /// The S3 operation's name (`GetObject`).
        var operation: String
        var method: String
        var bucket: String
        /// Nil for a bucket-level operation (a listing).
        var key: String?
        var query: [(name: String, value: String)] = []
        /// Headers to send and sign besides those signing adds.
        var headers: [(name: String, value: String)] = []
        var body: [UInt8] = []
        var maxBytes: Int = S3Client.xmlLimit

        /// `ListObjectsV2 s3://alias@bucket/key` for messages (the key as given, never a body).
        func subject(alias: String) -> String {
            "\(operation) s3://\(S3Bucket(endpoint: alias, name: bucket))/\(key ?? "")"
        }
    }

    /// The largest XML answer read (a listing of 1,000 keys of 1,024 bytes is about 1.5 MB).
    static let xmlLimit = 16 << 20

    /// Sends `call`, signed when the endpoint's credentials source gives credentials; returns a 2xx response, or throws
    /// the classified failure (a non-2xx status with its `<Code>`, or the transfer's failure).
    func send(_ call: Call) async throws(S3Error) -> S3HTTPResponse {
        // A bad endpoint URL is refused here; the request is signed on the pool thread, just
        // before it is sent, so time spent queued never counts against S3's 15-minute window.
        _ = try S3RequestTarget(endpoint: endpoint, bucket: call.bucket, key: call.key)
        let cancellation = S3Cancellation()
        let client = self
        let outcome = await withTaskCancellationHandler {
            await pool.run { () throws(Never) -> Result<S3HTTPResponse, S3TransportFailure> in
                // The credentials are asked for here, on the pool thread: a resolver may stat or
                // read a file, or ask STS.
                let credentials: S3Credentials?
                do throws(S3Error) { credentials = try client.endpoint.credentialsSource.current() } catch {
                    return .failure(.credentials(error))
                }
                guard let request = try? client.buildRequest(call, at: .now, credentials: credentials),
                    let transfer = S3CurlTransfer(maxBytes: request.maxBytes, cancellation: cancellation)
                else { return .failure(.setup("could not start a libcurl transfer")) }
                return transfer.perform(request, limits: client.limits, caFile: client.endpoint.caFile)
            }
        } onCancel: {
            cancellation.cancel()
        }
        let subject = call.subject(alias: endpoint.alias)
        switch outcome {
        case .failure(let failure):
            throw S3Failures.transport(failure, subject: subject, endpoint: endpoint, limits: limits, maxBytes: call.maxBytes)
        case .success(let response) where (200..<300).contains(response.status):
            return response
        case .success(let response):
            let refusal = S3Failures.status(response, subject: subject, endpoint: endpoint)
            if refusal.kind == S3Error.Kind.credentials { endpoint.credentialsSource.refused() }
            throw refusal
        }
    }

    /// The URL, the headers (signed with the endpoint's fixed credentials, if any) and the body
    /// of `call`.
    func buildRequest(_ call: Call, at timestamp: SigV4Timestamp) throws(S3Error) -> S3HTTPRequest {
        try buildRequest(call, at: timestamp, credentials: endpoint.credentials)
    }

    /// The URL, the headers (signed with `credentials`, if any) and the body of `call`.
    func buildRequest(_ call: Call, at timestamp: SigV4Timestamp, credentials: S3Credentials?) throws(S3Error) -> S3HTTPRequest {
        let target = try S3RequestTarget(endpoint: endpoint, bucket: call.bucket, key: call.key)
        var headers = call.headers
        if let credentials {
            let payloadHash = SigV4Signer.hexSHA256(call.body)
            headers.append(("x-amz-content-sha256", payloadHash))
            let signer = SigV4Signer(credentials: credentials, region: endpoint.region)
            let signed = signer.sign(
                method: call.method, host: target.host, path: target.path, query: call.query, headers: headers,
                payloadHash: payloadHash, at: timestamp)
            headers += signed.headers
        } else {
            headers.append(("host", target.host))
        }
        return S3HTTPRequest(
            method: call.method, url: target.url(query: call.query), headers: headers, body: call.body, maxBytes: call.maxBytes)
    }
}
