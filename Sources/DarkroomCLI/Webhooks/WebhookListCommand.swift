import ArgumentParser
import DarkroomWebhooks

/// `darkroom webhook list [--json]`.
struct WebhookListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show every webhook endpoint, by name.",
        discussion: """
            One line each: name, URL, live secrets (1, or 2 during a rotation), creation time and \
            allow-private-network when set. --json prints one record per line. Never a secret.

            Exit status: 0, 2 bad usage, 3 Redis unreachable.
            """
    )

    @Flag(help: "One JSON object per line.")
    var json = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func run() async throws {
        try await WebhookStores.run(redis) { stores in
            let endpoints = try await stores.endpoints.list()
            for endpoint in endpoints { StandardOutput.line(json ? try JSONText.line(endpoint) : WebhookFormatting.line(endpoint)) }
            if !json { StandardError.line("\(endpoints.count) webhook endpoint\(endpoints.count == 1 ? "" : "s")") }
        }
    }
}

/// `darkroom webhook remove NAME`.
struct WebhookRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a webhook endpoint and its secrets.",
        discussion: """
            Pending deliveries to it fail ("the endpoint was removed") when their turn comes; \
            `webhook redeliver` sends them again once an endpoint of that name exists.

            Exit status: 0, 1 no such endpoint, 2 bad usage, 3 Redis unreachable.
            """
    )

    @Argument(help: "The endpoint's name.")
    var name: String

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func run() async throws {
        try await WebhookStores.run(redis) { stores in
            guard try await stores.endpoints.remove(name: name) else {
                throw WebhookError(.unknown, "no webhook endpoint is named \(name) (darkroom webhook list)")
            }
            StandardOutput.line("removed webhook endpoint \(name)")
        }
    }
}
