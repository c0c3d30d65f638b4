/// `S3Client` as the output sink's store. PUT, HEAD and the upload's creation are sent here
/// with what `putObject`/`headObject`/`createMultipartUpload` leave out: user metadata
/// (`x-amz-meta-darkroom-sha256`, `-darkroom-owner`) and the conditional `If-None-Match: *` (on the
/// PUT and on the upload's completion).
extension S3Client: S3OutputStore {
    public func head(bucket: String, key: String) async throws(S3Error) -> S3OutputHead? {
        let call = Call(operation: "HeadObject", method: "HEAD", bucket: bucket, key: key, maxBytes: 0)
        let response: S3HTTPResponse
        do throws(S3Error) {
            response = try await send(call)
        } catch  where error.kind == .notFound {
            return nil
        }
        guard let etag = response.header("etag").map(S3XMLResponses.unquotedETag), !etag.isEmpty,
            let size = response.header("content-length").flatMap({ Int($0) }), size >= 0
        else {
            throw S3Failures.badResponse(call.subject(alias: endpoint.alias), "the response has no ETag or Content-Length")
        }
        var metadata: [String: String] = [:]
        let prefix = "x-amz-meta-"
        for (name, value) in response.headers where name.hasPrefix(prefix) {
            metadata[String(name.dropFirst(prefix.count))] = value
        }
        return S3OutputHead(etag: etag, size: size, metadata: metadata)
    }

    public func put(
        bucket: String, key: String, bytes: [UInt8], headers: S3OutputHeaders, onlyIfAbsent: Bool
    ) async throws(S3Error) -> String {
        var list = Self.outputHeaders(headers)
        list.append(("Content-MD5", Self.contentMD5(bytes)))
        if onlyIfAbsent { list.append(("If-None-Match", "*")) }
        let call = Call(operation: "PutObject", method: "PUT", bucket: bucket, key: key, headers: list, body: bytes)
        let response = try await send(call)
        guard let etag = response.header("etag").map(S3XMLResponses.unquotedETag), !etag.isEmpty else {
            throw S3Failures.badResponse(call.subject(alias: endpoint.alias), "the response has no ETag")
        }
        return etag
    }

    public func createUpload(bucket: String, key: String, headers: S3OutputHeaders) async throws(S3Error) -> String {
        try await createMultipartUpload(bucket: bucket, key: key, headers: Self.outputHeaders(headers))
    }

    public func completeUpload(
        bucket: String, key: String, uploadID: String, parts: [S3CompletedPart], onlyIfAbsent: Bool
    ) async throws(S3Error) -> String {
        // Conditional like the single PUT: of two uploads racing for one key, the service completes
        // one and answers the other 412, which the sink settles as it does a refused PUT.
        try await completeMultipartUpload(
            bucket: bucket, key: key, uploadID: uploadID, parts: parts, headers: onlyIfAbsent ? [("If-None-Match", "*")] : [])
    }

    public func abortUpload(bucket: String, key: String, uploadID: String) async throws(S3Error) {
        try await abortMultipartUpload(bucket: bucket, key: key, uploadID: uploadID)
    }

    public func listUploads(bucket: String, prefix: String) async throws(S3Error) -> [S3MultipartUpload] {
        try await listMultipartUploads(bucket: bucket, prefix: prefix)
    }

    /// Content-Type, Cache-Control and the user metadata, in a stable order (they are signed).
    static func outputHeaders(_ headers: S3OutputHeaders) -> [(name: String, value: String)] {
        Self.contentHeaders(contentType: headers.contentType, cacheControl: headers.cacheControl)
            + headers.metadata.sorted { $0.key < $1.key }.map { ("x-amz-meta-" + $0.key, $0.value) }
    }
}
