import ArgumentParser
import DarkroomAPIKeys

/// `darkroom api-key create | list | revoke`: the keys of the HTTP job API.
struct APIKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api-key",
        abstract: "Create, list or revoke API keys for the HTTP job API.",
        discussion: """
            A key has scopes (submit, read, admin), grants (the sources, output directories, webhook \
            endpoints and highest priority it may name) and a rate limit. Redis keeps each key's \
            record and the SHA-256 hash of its token; the token is printed once, by `create`. A \
            revoked key is refused by every API process within 5 s. See docs/http-api.md.
            """,
        subcommands: [APIKeyCreateCommand.self, APIKeyListCommand.self, APIKeyRevokeCommand.self]
    )
}

/// Opens the fleet's key store for an `api-key` command and reports failures by the one rule:
/// bad options 2, an unreachable Redis 3, anything else 1 (`QueueCommandRunner`).
enum APIKeyCommandRunner {
    static func run(_ redis: RedisOptions, _ body: (any APIKeyStore) async throws -> Void) async throws {
        let store: RedisAPIKeyStore
        do {
            store = RedisAPIKeyStore(client: try redis.makeClient(), keyPrefix: try redis.keyPrefix())
        } catch {
            throw error.exit()
        }
        // The URL's description shows the password as ***.
        try await QueueCommandRunner.run(queue: store as any APIKeyStore, describing: store.client.url.description, body)
    }
}
