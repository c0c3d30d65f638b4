import DarkroomS3
import Logging
import ServiceLifecycle

/// The worker's sweep of orphaned multipart uploads (`S3Sink.sweepUploads`): at start, then every
/// `--s3-sweep-interval`, until the worker shuts down. Each upload it aborts is logged; so is a
/// bucket it cannot list (a key without `s3:ListBucketMultipartUploads`), at warning level.
struct S3UploadSweepService: Service {
    let sink: S3Sink
    let logger: Logger

    func run() async throws {
        let logger = self.logger
        await cancelWhenGracefulShutdown {
            await sink.sweepUploadsPeriodically { report in
                for location in report.aborted {
                    logger.info("aborted an orphaned multipart upload", metadata: ["object": "\(location)"])
                }
                for failure in report.failures {
                    logger.warning("upload sweep: \(failure)")
                }
            }
        }
    }
}
