import ArgumentParser
import DarkroomQueue
import DarkroomRedis
import Foundation

/// `--redis URL` and `--redis-prefix`, shared by every command that talks to the queue
/// (`@OptionGroup var redis: RedisOptions`).
///
/// The URL comes from `--redis`, else `DARKROOM_REDIS_URL`, else `redis://127.0.0.1:6379`; a file
/// named by `DARKROOM_REDIS_PASSWORD_FILE` supplies the password (`RedisURL.resolve`). A password
/// typed into `--redis` works but draws a warning: every user on the host sees argv in `ps`.
struct RedisOptions: ParsableArguments {
    @Option(
        name: .customLong("redis"),
        help: ArgumentHelp(
            "Redis URL: redis://[user:password@]host[:port][/db] or unix:///path. Default: $DARKROOM_REDIS_URL, else redis://127.0.0.1:6379. Prefer DARKROOM_REDIS_URL (and DARKROOM_REDIS_PASSWORD_FILE): a password on the command line is visible to everyone in `ps`.",
            valueName: "url"))
    var redisURL: String?

    @Option(
        name: .customLong("redis-prefix"),
        help: ArgumentHelp(
            "Prefix of every Redis key, to run separate queues on one Redis (default: $DARKROOM_REDIS_PREFIX, else darkroom). Workers and clients of one queue must agree.",
            valueName: "prefix"))
    var keyPrefixOption: String?

    /// The default key prefix.
    static let defaultKeyPrefix = "darkroom"

    /// The resolved URL; a bad URL or unreadable password file is a usage failure.
    func url(environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageFailure) -> RedisURL {
        do {
            let url = try RedisURL.resolve(argument: redisURL, environment: environment)
            if let redisURL, !redisURL.isEmpty, (try? RedisURL(redisURL))?.password != nil {
                StandardError.line(
                    "darkroom: warning: the Redis password is on the command line, where `ps` shows it; set DARKROOM_REDIS_URL or DARKROOM_REDIS_PASSWORD_FILE instead"
                )
            }
            return url
        } catch {
            throw UsageFailure("\(error)")
        }
    }

    /// The key prefix: `--redis-prefix`, else `DARKROOM_REDIS_PREFIX`, else `darkroom`.
    func keyPrefix(environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageFailure) -> String {
        let prefix = keyPrefixOption ?? environment["DARKROOM_REDIS_PREFIX"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultKeyPrefix
        guard !prefix.isEmpty, prefix.utf8.count <= 100,
            !prefix.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else {
            throw UsageFailure("--redis-prefix must be 1–100 characters without spaces or control characters (got '\(prefix.prefix(40))')")
        }
        return prefix
    }

    /// A client for the resolved URL. `connection` decides how hard it tries: one-shot commands
    /// use `.oneShot` (fail within seconds), workers the patient `RedisConnectionOptions()`.
    /// `dedicatedConnections` bounds the blocking reads in flight at once (`reserve`/`readEvents`
    /// with a wait): a worker with several reading tasks needs as many.
    func makeClient(
        connection: RedisConnectionOptions = .oneShot, connections: Int = 4,
        dedicatedConnections: Int = 2
    ) throws(UsageFailure) -> RedisClient {
        RedisClient(url: try url(), options: connection, connections: connections, dedicatedConnections: dedicatedConnections)
    }

    /// The Redis Streams queue these options name. Nothing is sent until the first call.
    func openQueue(
        configuration: JobQueueConfiguration = JobQueueConfiguration(),
        connection: RedisConnectionOptions = .oneShot, connections: Int = 4,
        dedicatedConnections: Int = 2
    ) throws(UsageFailure) -> RedisStreamsQueue {
        RedisStreamsQueue(
            client: try makeClient(
                connection: connection, connections: connections,
                dedicatedConnections: dedicatedConnections),
            configuration: configuration, keyPrefix: try keyPrefix())
    }
}

extension RedisConnectionOptions {
    /// For commands a person waits on: a 3 s connect timeout and one retry, so an unreachable
    /// Redis is reported within seconds instead of after a long backoff.
    static let oneShot = RedisConnectionOptions(
        connectTimeout: .seconds(3), commandTimeout: .seconds(15),
        reconnectAttempts: 2, initialBackoff: .milliseconds(100),
        maximumBackoff: .milliseconds(500))
}
