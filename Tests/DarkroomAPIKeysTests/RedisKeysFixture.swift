import DarkroomRedis
import DarkroomTestSupport
import Foundation

/// A redis-server of a test's own, a client on it, and a fresh key prefix.
struct RedisKeysFixture {
    let server: RedisTestServer
    let client: RedisClient
    let prefix = "t" + String(UUID().uuidString.prefix(8)).lowercased()

    init() throws {
        server = try RedisTestServer()
        client = RedisClient(url: try RedisURL(server.url))
    }

    /// Another client on the same server: another API process.
    func otherClient() throws -> RedisClient {
        RedisClient(url: try RedisURL(server.url))
    }
}
