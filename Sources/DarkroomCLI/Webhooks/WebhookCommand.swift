import ArgumentParser
import DarkroomRedis
import DarkroomWebhooks

/// `darkroom webhook add | list | rotate | retire-old | remove | deliveries | redeliver`.
struct WebhookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook",
        abstract: "Register webhook endpoints and inspect their deliveries.",
        discussion: """
            When a job that names an endpoint (enqueue --webhook NAME) ends, the coordinator POSTs \
            a signed JSON event to it, retrying for 24 hours. Secrets are printed once, by `add` \
            and `rotate`. See docs/http-api.md (Webhooks).
            """,
        subcommands: [
            WebhookAddCommand.self, WebhookListCommand.self, WebhookRotateCommand.self, WebhookRetireOldCommand.self,
            WebhookRemoveCommand.self, WebhookDeliveriesCommand.self, WebhookRedeliverCommand.self,
        ]
    )
}

/// The fleet's webhook stores for a `webhook` command, with failures reported by the one rule:
/// bad usage 2, an unreachable Redis 3, an unknown endpoint or delivery (or a refused change) 1.
struct WebhookStores: Sendable {
    let client: RedisClient
    let endpoints: RedisWebhookEndpointStore
    let outbox: RedisWebhookOutbox

    static func run(_ redis: RedisOptions, _ body: (WebhookStores) async throws -> Void) async throws {
        let stores: WebhookStores
        do {
            let client = try redis.makeClient()
            let prefix = try redis.keyPrefix()
            stores = WebhookStores(
                client: client, endpoints: RedisWebhookEndpointStore(client: client, keyPrefix: prefix),
                outbox: RedisWebhookOutbox(client: client, keyPrefix: prefix))
        } catch {
            throw error.exit()
        }
        try await QueueCommandRunner.run(queue: stores, describing: stores.client.url.description) { stores in
            do {
                try await body(stores)
            } catch let error as WebhookError {
                StandardError.line("darkroom: \(error.message)")
                throw error.code == .invalid ? QueueExit.usage : QueueExit.failed
            }
        }
    }
}
