import Glibc

/// What one sweep of orphaned multipart uploads did.
public struct S3UploadSweepReport: Sendable, Hashable {
    /// The uploads aborted, as `s3://` URLs of their keys.
    public var aborted: [String] = []
    /// Buckets or uploads the sweep could not list or abort, with why (it goes on with the rest).
    public var failures: [String] = []

    public init(aborted: [String] = [], failures: [String] = []) {
        self.aborted = aborted
        self.failures = failures
    }
}

extension S3Sink {
    /// Aborts the multipart uploads in every allowed bucket that began more than `age` ago
    /// (default `options.orphanAge`): those a killed worker left. S3 keeps (and bills) an
    /// unfinished upload's parts until it is completed or aborted. An upload whose start time
    /// the listing does not give is left alone, unless `age` is zero.
    ///
    /// The whole bucket is swept, not only Darkroom's prefixes: an upload by another program
    /// that has run longer than `age` would be aborted too, so give such buckets a longer
    /// `orphanAge` (docs/object-storage.md#outputs). A bucket lifecycle rule
    /// (`AbortIncompleteMultipartUpload` after one day) is the backstop when no worker runs.
    public func sweepUploads(olderThan age: Duration? = nil, now: Int = Int(time(nil))) async -> S3UploadSweepReport {
        let age = age ?? options.orphanAge
        let cutoff = now - Int(age.components.seconds)
        var report = S3UploadSweepReport()
        for bucket in configuration.allowedBuckets.sorted() {
            guard let store = stores[bucket.endpoint] else { continue }
            let uploads: [S3MultipartUpload]
            do throws(S3Error) {
                uploads = try await store.listUploads(bucket: bucket.name, prefix: "")
            } catch {
                report.failures.append("\(bucket): cannot list uploads: \(error.message)")
                continue
            }
            for upload in uploads {
                if age > .zero {
                    guard let started = upload.initiatedEpochSeconds, started <= cutoff else { continue }
                }
                let location = S3ObjectAddress(bucket: bucket, key: upload.key).description
                do throws(S3Error) {
                    try await store.abortUpload(bucket: bucket.name, key: upload.key, uploadID: upload.uploadID)
                    report.aborted.append(location)
                } catch  where error.kind == .notFound {
                    // Completed or aborted meanwhile: nothing left to do.
                } catch {
                    report.failures.append("\(location): cannot abort upload: \(error.message)")
                }
            }
        }
        return report
    }

    /// Sweeps now and then every `options.sweepInterval` until the task is cancelled, handing
    /// each report to `report` (the worker logs it).
    public func sweepUploadsPeriodically(report: @Sendable (S3UploadSweepReport) -> Void) async {
        while !Task.isCancelled {
            report(await sweepUploads())
            try? await Task.sleep(for: options.sweepInterval)
        }
    }
}
