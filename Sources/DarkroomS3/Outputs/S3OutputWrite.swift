import DarkroomOutput

/// One output on its way into a bucket (`S3Sink.store`): the HEAD that finds what the key holds,
/// the comparison, and the upload, in one PUT or in parts.
struct S3OutputWrite: Sendable {
    var target: S3Sink.Target
    var key: String
    var location: String
    var bytes: [UInt8]
    var sha256: String
    var headers: S3OutputHeaders
    var options: S3SinkOptions

    private var bucket: String { target.bucket.name }
    private var store: any S3OutputStore { target.store }

    /// What the key holds now; nil: nothing. A HEAD's 403 has no body, so no `<Code>` tells a
    /// wrong secret from a missing permission: with `denialIsUnknown` that answer counts as
    /// nothing known, and the write that follows, whose answer has a body, says which it is.
    func head(denialIsUnknown: Bool = false) async throws(OutputError) -> S3OutputHead? {
        do throws(S3Error) {
            return try await store.head(bucket: bucket, key: key)
        } catch  where denialIsUnknown && error.kind == .forbidden && error.serviceCode == nil {
            return nil
        } catch {
            throw .s3(error, location, doing: "look up the object")
        }
    }

    /// Success when `existing` holds these bytes (this output, stored before: a redelivery),
    /// `output.taken` naming its owner otherwise.
    func settle(with existing: S3OutputHead) throws(OutputError) -> StoredOutput {
        guard S3OutputChecksums.holds(existing, bytes: bytes, sha256: sha256, partSize: options.partSize) else {
            throw .taken(location, owner: S3OutputOwnerMetadata.owner(existing.metadata[S3OutputOwnerMetadata.key]))
        }
        return StoredOutput(location: location, byteCount: bytes.count, sha256: sha256, etag: existing.etag)
    }

    /// Uploads the bytes and returns the ETag; `onlyIfAbsent` makes the write conditional, and a
    /// refusal `output.taken` (without an owner: the caller looks).
    func upload(onlyIfAbsent: Bool) async throws(OutputError) -> String {
        do throws(S3Error) {
            if bytes.count < options.multipartThreshold {
                return try await store.put(bucket: bucket, key: key, bytes: bytes, headers: headers, onlyIfAbsent: onlyIfAbsent)
            }
            return try await uploadInParts(onlyIfAbsent: onlyIfAbsent)
        } catch {
            if onlyIfAbsent && error.isPreconditionFailed { throw .taken(location) }
            throw .s3(error, location, doing: "write the object", duringUpload: bytes.count >= options.multipartThreshold)
        }
    }

    /// A multipart upload: orphans of earlier attempts at this key aborted first, then the
    /// parts one after another, then the completion. Any failure aborts the upload, so no parts
    /// are left behind (the sweep and the bucket's lifecycle rule catch what a killed process
    /// leaves).
    private func uploadInParts(onlyIfAbsent: Bool) async throws(S3Error) -> String {
        await abortEarlierUploads()
        let uploadID = try await store.createUpload(bucket: bucket, key: key, headers: headers)
        do throws(S3Error) {
            var parts: [S3CompletedPart] = []
            var number = 1
            for start in stride(from: 0, to: bytes.count, by: options.partSize) {
                let part = Array(bytes[start..<min(bytes.count, start + options.partSize)])
                parts.append(try await store.uploadPart(bucket: bucket, key: key, uploadID: uploadID, number: number, bytes: part))
                number += 1
            }
            return try await store.completeUpload(bucket: bucket, key: key, uploadID: uploadID, parts: parts, onlyIfAbsent: onlyIfAbsent)
        } catch {
            // Best effort: the sweep and the lifecycle rule remove what this leaves.
            try? await store.abortUpload(bucket: bucket, key: key, uploadID: uploadID)
            throw error
        }
    }

    /// Aborts every upload in progress for exactly this key: an earlier attempt's, whose worker
    /// was killed mid-upload (its lease expired, so the job came here). Best effort: listing
    /// uploads needs `s3:ListBucketMultipartUploads`, which a write-only key may lack.
    private func abortEarlierUploads() async {
        guard let uploads = try? await store.listUploads(bucket: bucket, prefix: key) else { return }
        for upload in uploads where upload.key == key {
            try? await store.abortUpload(bucket: bucket, key: key, uploadID: upload.uploadID)
        }
    }
}
