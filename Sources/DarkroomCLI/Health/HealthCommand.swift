import ArgumentParser
import DarkroomRedis
import DarkroomS3
import Foundation

/// `darkroom health`: the checks an orchestrator's probes run against a worker's container — Redis
/// answers, the shared volume takes writes, the allowed buckets answer and take the credentials,
/// the worker process is alive (its heartbeat file is fresh). One line per check; exit 0 when all
/// pass, 1 when any fails, 2 for bad usage.
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Check Redis, the shared volume, the buckets and a worker's heartbeat file (for readiness and liveness probes).",
        discussion: """
            Readiness (can this container do work?): darkroom health --cache /volume/cache --writable /volume/out
            PINGs Redis (the URL as for every command: --redis, else $DARKROOM_REDIS_URL) and writes and \
            removes a file in each directory.

            Buckets (readiness or startup probes only, never liveness: a bucket outage must not \
            restart every worker): darkroom health --s3-buckets checks each bucket allowed by \
            --allow-bucket (else $DARKROOM_S3_ALLOW_BUCKETS) on its --s3-endpoint, with the \
            credentials from the environment: HeadBucket answers 200; when it is refused with 403 \
            (credentials without s3:ListBucket), a GetObject of a key that cannot exist must answer \
            404 NoSuchKey or 403 AccessDenied, which prove the signature was accepted. A missing \
            bucket, refused credentials, a clock too far off or no answer within --timeout fails.

            Liveness (is the worker process alive?): darkroom health --no-redis --heartbeat-file FILE --max-age 60
            checks the file `darkroom worker --heartbeat-file FILE` touches every 5 s. It does not \
            depend on Redis, so an outage of Redis does not get every worker restarted.

            Exit 0 when every check passes, 1 when any fails, 2 for bad usage.
            """
    )

    @Flag(help: "Skip the Redis check (for liveness probes).")
    var noRedis = false

    @Option(help: ArgumentHelp("Seconds Redis gets to answer PING, and each bucket to answer (--s3-buckets).", valueName: "seconds"))
    var timeout: Double = 3

    @Option(help: "Cache directory that must take writes (not read from $DARKROOM_CACHE_DIR: a liveness probe must not check the volume by accident).")
    var cache: String?

    @Option(name: .customLong("writable"), help: ArgumentHelp("Another directory that must take writes (repeatable).", valueName: "dir"))
    var writableDirectories: [String] = []

    @Option(help: ArgumentHelp("A worker's heartbeat file (worker --heartbeat-file) that must be fresh.", valueName: "file"))
    var heartbeatFile: String?

    @Option(help: ArgumentHelp("Oldest heartbeat file accepted, in seconds.", valueName: "seconds"))
    var maxAge: Double = 30

    @Flag(
        name: .customLong("s3-buckets"),
        help: "Check each allowed bucket: reachable, the credentials accepted (readiness or startup probes, never liveness).")
    var s3Buckets = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    @OptionGroup(title: "Object storage (with --s3-buckets)")
    var s3: S3Options

    func run() async throws {
        guard timeout.isFinite, (0.1...60).contains(timeout) else { throw UsageFailure("--timeout must be 0.1…60 seconds").exit() }
        guard maxAge.isFinite, (1...86_400).contains(maxAge) else { throw UsageFailure("--max-age must be 1…86400 seconds").exit() }
        let directories = cache.map { [$0] } ?? []
        guard !noRedis || !directories.isEmpty || !writableDirectories.isEmpty || heartbeatFile != nil || s3Buckets else {
            throw UsageFailure("--no-redis leaves nothing to check: add --cache, --writable, --heartbeat-file or --s3-buckets").exit()
        }
        // Read only when asked for: a liveness probe in a container whose environment allows
        // buckets must not check them.
        var buckets: S3Configuration?
        if s3Buckets {
            do { buckets = try s3.configuration() } catch { throw error.exit() }
            guard buckets?.allowedBuckets.isEmpty == false else {
                throw UsageFailure("--s3-buckets: no bucket is allowed; give --allow-bucket or DARKROOM_S3_ALLOW_BUCKETS").exit()
            }
        }

        var results: [HealthCheck.Result] = []
        if !noRedis {
            let url: RedisURL
            do { url = try redis.url() } catch { throw error.exit() }
            results.append(await HealthCheck.redis(url: url, timeout: .milliseconds(Int64(timeout * 1000))))
        }
        for directory in directories + writableDirectories {
            results.append(HealthCheck.writable(directory: directory))
        }
        if let buckets {
            results += await HealthCheck.buckets(buckets, timeout: .milliseconds(Int64(timeout * 1000)))
        }
        if let heartbeatFile {
            results.append(HealthCheck.fresh(file: heartbeatFile, maxAge: maxAge))
        }
        for result in results {
            print("\(result.passed ? "ok  " : "FAIL") \(result.name): \(result.detail)")
        }
        if results.contains(where: { !$0.passed }) { throw ExitCode(1) }
    }
}
