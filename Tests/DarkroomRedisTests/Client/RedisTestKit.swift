import DarkroomSystem
import DarkroomTestSupport

@testable import DarkroomRedis

/// Helpers for the Redis connection tests.
enum RedisTestKit {
    /// Short timeouts so failure paths finish quickly in tests.
    static let quickOptions = RedisConnectionOptions(
        connectTimeout: .seconds(2), commandTimeout: .seconds(5),
        reconnectAttempts: 3, initialBackoff: .milliseconds(20),
        maximumBackoff: .milliseconds(200))

    /// Threads for blocking calls in tests, so a blocked BLPOP never occupies a cooperative thread
    /// another test (or the task meant to wake it) needs.
    static let threads = BlockingWorkPool(threadCount: 8)

    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await threads.run(body)
    }

    static func connect(_ server: RedisTestServer, options: RedisConnectionOptions = quickOptions) throws -> RedisConnection {
        try RedisConnection.connect(url: RedisURL(server.url), options: options)
    }
}
