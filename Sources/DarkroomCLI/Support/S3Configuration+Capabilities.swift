import DarkroomQueue
import DarkroomS3

extension S3Configuration {
    /// The bucket capabilities a worker with this configuration offers: `s3:ALIAS@BUCKET` for
    /// each allowed bucket (`Capabilities.bucket(alias:name:)`), so that it is handed only jobs
    /// whose buckets it allows (docs/queue.md#capabilities-jobs-that-say-what-they-need).
    var offeredBucketCapabilities: Set<String> {
        Set(allowedBuckets.map { Capabilities.bucket(alias: $0.endpoint, name: $0.name) })
    }
}
