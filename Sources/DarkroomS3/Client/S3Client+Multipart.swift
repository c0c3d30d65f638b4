extension S3Client {
    /// `CreateMultipartUpload` for `key`, with the object's Content-Type and Cache-Control.
    /// Returns the upload id.
    public func createMultipartUpload(
        bucket: String, key: String, contentType: String?, cacheControl: String?
    ) async throws(S3Error) -> String {
        try await createMultipartUpload(bucket: bucket, key: key, headers: Self.contentHeaders(contentType: contentType, cacheControl: cacheControl))
    }

    /// `CreateMultipartUpload` with `headers` as given: the object's own, and user metadata
    /// (the output sink's `x-amz-meta-*`).
    func createMultipartUpload(bucket: String, key: String, headers: [(name: String, value: String)]) async throws(S3Error) -> String {
        let call = Call(
            operation: "CreateMultipartUpload", method: "POST", bucket: bucket, key: key, query: [("uploads", "")], headers: headers)
        let response = try await send(call)
        let root = try xml(response, call)
        guard root.name == "InitiateMultipartUploadResult", let id = root.value("UploadId"), !id.isEmpty else {
            throw S3Failures.badResponse(call.subject(alias: endpoint.alias), "the answer has no UploadId")
        }
        return id
    }

    /// `UploadPart` `number` (1 to 10,000) of an upload, with Content-MD5. Every part but the last
    /// must be at least 5 MiB.
    public func uploadPart(
        bucket: String, key: String, uploadID: String, number: Int, bytes: [UInt8]
    ) async throws(S3Error) -> S3CompletedPart {
        let call = Call(
            operation: "UploadPart", method: "PUT", bucket: bucket, key: key,
            query: [("partNumber", String(number)), ("uploadId", uploadID)],
            headers: [("Content-MD5", Self.contentMD5(bytes))], body: bytes)
        let response = try await send(call)
        guard let etag = response.header("etag").map(S3XMLResponses.unquotedETag), !etag.isEmpty else {
            throw S3Failures.badResponse(call.subject(alias: endpoint.alias), "the response has no ETag")
        }
        return S3CompletedPart(number: number, etag: etag)
    }

    /// `CompleteMultipartUpload` with `parts` (sent in part-number order) and `headers` besides
    /// its own (the output sink's `If-None-Match: *`, so of two uploads to one key only the first
    /// completes). Returns the object's ETag. A 200 whose body is an `<Error>` (S3 does that when
    /// it fails late) is a failure.
    public func completeMultipartUpload(
        bucket: String, key: String, uploadID: String, parts: [S3CompletedPart], headers: [(name: String, value: String)] = []
    ) async throws(S3Error) -> String {
        let body =
            "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
            + parts.sorted { $0.number < $1.number }.map {
                "<Part><PartNumber>\($0.number)</PartNumber><ETag>\(S3XMLElement.escape("\"" + $0.etag + "\""))</ETag></Part>"
            }.joined() + "</CompleteMultipartUpload>"
        let call = Call(
            operation: "CompleteMultipartUpload", method: "POST", bucket: bucket, key: key, query: [("uploadId", uploadID)],
            headers: [("Content-Type", "application/xml")] + headers, body: Array(body.utf8))
        let response = try await send(call)
        let subject = call.subject(alias: endpoint.alias)
        let root = try xml(response, call)
        if root.name == "Error" {
            throw S3Failures.errorIn200(code: S3XMLResponses.errorCode(response.body), subject: subject, endpoint: endpoint)
        }
        // S3 names the root CompleteMultipartUploadResult; moto, CompleteMultipartUploadResponse.
        guard root.name.hasPrefix("CompleteMultipartUpload"), let etag = root.value("ETag").map(S3XMLResponses.unquotedETag),
            !etag.isEmpty
        else { throw S3Failures.badResponse(subject, "the answer has no ETag") }
        return etag
    }

    /// `AbortMultipartUpload`: the parts uploaded so far are deleted.
    public func abortMultipartUpload(bucket: String, key: String, uploadID: String) async throws(S3Error) {
        let call = Call(
            operation: "AbortMultipartUpload", method: "DELETE", bucket: bucket, key: key, query: [("uploadId", uploadID)])
        _ = try await send(call)
    }

    /// `ListMultipartUploads` under `prefix`, every page (up to 1,000 uploads each).
    public func listMultipartUploads(bucket: String, prefix: String) async throws(S3Error) -> [S3MultipartUpload] {
        var uploads: [S3MultipartUpload] = []
        var marker: (keyMarker: String, uploadIDMarker: String)?
        repeat {
            var query: [(name: String, value: String)] = [("uploads", ""), ("prefix", prefix), ("encoding-type", "url")]
            if let marker { query += [("key-marker", marker.keyMarker), ("upload-id-marker", marker.uploadIDMarker)] }
            let call = Call(operation: "ListMultipartUploads", method: "GET", bucket: bucket, key: nil, query: query)
            let response = try await send(call)
            let root = try xml(response, call)
            do {
                let page = try S3XMLResponses.uploadsPage(root)
                if let next = page.next, let marker, next == marker {
                    throw S3XMLError("the next page's markers are the ones asked with")
                }
                uploads += page.uploads
                marker = page.next
            } catch {
                throw S3Failures.badResponse(call.subject(alias: endpoint.alias), "the upload listing could not be read (\(error))")
            }
        } while marker != nil
        return uploads
    }
}
