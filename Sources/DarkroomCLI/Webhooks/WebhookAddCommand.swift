import ArgumentParser
import DarkroomWebhooks

/// `darkroom webhook add NAME URL [--allow-private-network] [--json]`.
struct WebhookAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Register a webhook endpoint and print its signing secret (shown this once).",
        discussion: """
            Prints the endpoint and its secret (whsec_ and 64 hex digits); keep it where the \
            receiver verifies signatures. The URL must be http:// or https://; a private, loopback \
            or link-local address is refused at connect time unless --allow-private-network.

            Exit status: 0, 1 the name is taken, 2 bad usage, 3 Redis unreachable.
            """
    )

    @Argument(help: "The endpoint's name (1-64 letters, digits, '-', '_', '.'), as jobs name it.")
    var name: String

    @Argument(help: "The http(s) URL deliveries are POSTed to.")
    var url: String

    @Flag(help: "Allow the URL to resolve to a private, loopback or link-local address.")
    var allowPrivateNetwork = false

    @Flag(help: "Print {endpoint, secret} as one JSON object.")
    var json = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func run() async throws {
        try await WebhookStores.run(redis) { stores in
            let created = try await stores.endpoints.create(name: name, url: url, allowPrivateNetwork: allowPrivateNetwork)
            WebhookFormatting.printSecret(created, json: json, verb: "registered")
        }
    }
}

/// `darkroom webhook rotate NAME [--json]`.
struct WebhookRotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Add a second secret to an endpoint and print it (shown this once).",
        discussion: """
            Deliveries are signed with both secrets (two v1= values) until `webhook retire-old`, so \
            the receiver can switch to the new one without losing a delivery.

            Exit status: 0, 1 no such endpoint or two secrets already live, 2 bad usage, 3 Redis unreachable.
            """
    )

    @Argument(help: "The endpoint's name.")
    var name: String

    @Flag(help: "Print {endpoint, secret} as one JSON object.")
    var json = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func run() async throws {
        try await WebhookStores.run(redis) { stores in
            WebhookFormatting.printSecret(try await stores.endpoints.rotate(name: name), json: json, verb: "rotated")
        }
    }
}

/// `darkroom webhook retire-old NAME`.
struct WebhookRetireOldCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retire-old",
        abstract: "Drop the older of an endpoint's two secrets.",
        discussion: "Exit status: 0, 1 no such endpoint or only one secret live, 2 bad usage, 3 Redis unreachable."
    )

    @Argument(help: "The endpoint's name.")
    var name: String

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func run() async throws {
        try await WebhookStores.run(redis) { stores in
            _ = try await stores.endpoints.retireOldSecret(name: name)
            StandardOutput.line("webhook endpoint \(name): the old secret is retired; deliveries are signed with the new one only")
        }
    }
}
