import ArgumentParser
import DarkroomWebhooks

/// `darkroom webhook deliveries [--failed] [--json]`.
struct WebhookDeliveriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries",
        abstract: "Show pending webhook deliveries, or failed ones.",
        discussion: """
            One line each: delivery id, state, endpoint, event, order key (job:ID), attempts, the \
            next attempt (pending) and the latest error. Pending ones oldest first; --failed shows \
            failed ones, latest first, with the count a cap dropped on standard error. At most 1,000.

            Exit status: 0, 2 bad usage, 3 Redis unreachable.
            """
    )

    @Flag(help: "Show failed deliveries (retries ran out, a cap dropped them, the endpoint was removed).")
    var failed = false

    @Flag(help: "One JSON object per line (no body, no secret).")
    var json = false

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func run() async throws {
        try await WebhookStores.run(redis) { stores in
            let deliveries = try await stores.outbox.list(failed: failed)
            for delivery in deliveries {
                StandardOutput.line(json ? try JSONText.line(delivery) : WebhookFormatting.line(delivery))
            }
            if !json {
                let dropped = failed ? ", \(try await stores.outbox.droppedCount()) dropped by a cap since the fleet began" : ""
                StandardError.line("\(deliveries.count) \(failed ? "failed" : "pending") deliver\(deliveries.count == 1 ? "y" : "ies")\(dropped)")
            }
        }
    }
}

/// `darkroom webhook redeliver DELIVERY-ID`.
struct WebhookRedeliverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redeliver",
        abstract: "Send a failed (or delivered) webhook delivery again, with the same id and body.",
        discussion: """
            Its attempts and 24-hour retry window start again; it is sent after any pending delivery \
            of the same job.

            Exit status: 0, 1 no failed or delivered delivery has that id, 2 bad usage, 3 Redis unreachable.
            """
    )

    @Argument(help: "The delivery id, as `webhook deliveries --failed` shows it.")
    var id: String

    @OptionGroup(title: "Redis")
    var redis: RedisOptions

    func run() async throws {
        try await WebhookStores.run(redis) { stores in
            try await stores.outbox.redeliver(id)
            StandardOutput.line("delivery \(id) is pending again")
        }
    }
}
