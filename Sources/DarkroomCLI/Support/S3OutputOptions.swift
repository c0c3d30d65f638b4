import ArgumentParser
import DarkroomOutput
import DarkroomS3
import DarkroomSources
import DarkroomSystem

/// How outputs go into buckets (`darkroom worker`; docs/object-storage.md#outputs). The endpoints
/// and allowed buckets themselves are `S3Options`' (`--s3-endpoint`, `--allow-bucket`).
struct S3OutputOptions: ParsableArguments {
    @Option(
        name: .customLong("s3-cache-control"),
        help: ArgumentHelp("Cache-Control header of every output written to a bucket (default: none).", valueName: "value"))
    var cacheControl: String?

    @Option(
        name: .customLong("s3-multipart-threshold-mb"),
        help: ArgumentHelp("Outputs of at least this many MiB go up as multipart uploads.", valueName: "MiB"))
    var multipartThresholdMB: Double = 16

    @Option(
        name: .customLong("s3-part-size-mb"),
        help: ArgumentHelp("Size of each part of a multipart upload, in MiB (at least 5, S3's least).", valueName: "MiB"))
    var partSizeMB: Double = 8

    @Option(
        name: .customLong("s3-orphan-upload-age"),
        help: ArgumentHelp("Seconds after which an unfinished multipart upload in an allowed bucket counts as orphaned and is aborted.", valueName: "S"))
    var orphanAge: Double = 3600

    @Option(
        name: .customLong("s3-sweep-interval"),
        help: ArgumentHelp("Seconds between sweeps for orphaned uploads (0: no sweep).", valueName: "S"))
    var sweepInterval: Double = 900

    static let mebibyte = 1024.0 * 1024.0

    /// The threads uploads block on: the network sources' pool, whose size already bounds a
    /// worker's transfers (an upload is one per job in flight at most).
    static var pool: BlockingWorkPool { HTTPProvider.sharedPool }

    /// The sink options these flags describe.
    func sinkOptions() throws(UsageFailure) -> S3SinkOptions {
        if let cacheControl, let problem = S3SinkOptions.cacheControlProblem(cacheControl) {
            throw UsageFailure("--s3-cache-control \(problem)")
        }
        guard multipartThresholdMB.isFinite, (1...5120).contains(multipartThresholdMB) else {
            throw UsageFailure("--s3-multipart-threshold-mb must be 1…5120")
        }
        guard partSizeMB.isFinite, (5...5120).contains(partSizeMB) else { throw UsageFailure("--s3-part-size-mb must be 5…5120") }
        guard orphanAge.isFinite, (60...604_800).contains(orphanAge) else {
            throw UsageFailure("--s3-orphan-upload-age must be 60…604800 seconds (a week)")
        }
        guard sweepInterval.isFinite, sweepInterval == 0 || (10...86_400).contains(sweepInterval) else {
            throw UsageFailure("--s3-sweep-interval must be 0 (no sweep) or 10…86400 seconds")
        }
        return S3SinkOptions(
            multipartThreshold: Int(multipartThresholdMB * Self.mebibyte), partSize: Int(partSizeMB * Self.mebibyte),
            cacheControl: cacheControl, orphanAge: .milliseconds(Int64(orphanAge * 1000)),
            sweepInterval: .milliseconds(Int64(max(sweepInterval, 1) * 1000)))
    }

    /// Whether the worker sweeps for orphaned uploads.
    var sweeps: Bool { sweepInterval > 0 }

    /// The worker's output sink: `volume` alone without object storage; with it, a
    /// `RoutedOutputSink` sending `s3://` destinations to an `S3Sink` (also returned, for the
    /// sweep). The S3 requests block on `pool`.
    func sink(volume: VolumeSink, configuration: S3Configuration, pool: BlockingWorkPool) throws(UsageFailure) -> (
        outputs: any OutputSink, s3: S3Sink?
    ) {
        // Checked even without a bucket, so a bad flag is reported wherever it is given.
        let options = try sinkOptions()
        guard !configuration.isEmpty else { return (volume, nil) }
        let s3 = S3Sink(configuration: configuration, pool: pool, options: options)
        return (RoutedOutputSink(volume: volume, schemes: ["s3": s3]), s3)
    }
}
