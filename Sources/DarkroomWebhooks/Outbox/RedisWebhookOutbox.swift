import DarkroomQueue
import DarkroomRedis

/// The webhook outbox in Redis (`RedisWebhookKeys`): deliveries survive restarts and a fail-over
/// of the coordinator, since whichever notifier holds the lease continues from here.
///
/// Per-order sequencing: deliveries with one `orderKey` wait in a list, and only its head is in
/// the due set, so a job's later notification is never sent before its earlier one has been
/// delivered or has failed for good.
public final class RedisWebhookOutbox: Sendable {
    public let client: RedisClient
    public let policy: WebhookDeliveryPolicy
    let keys: RedisWebhookKeys

    /// Called with each cap that failed deliveries when one was added, and how many (the
    /// coordinator counts them in `darkroom_webhook_deliveries_dropped_total`).
    let onDropped: @Sendable (WebhookPendingCap, Int) -> Void

    public init(
        client: RedisClient, keyPrefix: String = "darkroom", policy: WebhookDeliveryPolicy = WebhookDeliveryPolicy(),
        onDropped: @escaping @Sendable (WebhookPendingCap, Int) -> Void = { _, _ in }
    ) {
        self.client = client
        self.policy = policy
        self.onDropped = onDropped
        keys = RedisWebhookKeys(prefix: keyPrefix)
    }

    /// Adds a delivery unless one with its id exists (a re-read event makes no duplicate); past a
    /// cap (its owner's, its endpoint's, the total) the oldest pending deliveries that cap holds
    /// fail, counted as dropped. True when added.
    @discardableResult
    public func add(_ delivery: WebhookDelivery, now: Timestamp = .now()) async throws -> Bool {
        let reply = try await client.evalsha(
            Self.addScript, keys: [],
            arguments: [
                keys.root, delivery.id, delivery.endpoint, delivery.event, delivery.orderKey, delivery.body ?? "{}",
                "\(now.millisecondsSince1970)", "\(policy.maxPendingPerEndpoint)", "\(policy.maxPending)",
                delivery.owner ?? WebhookPendingCap.noOwner, "\(policy.maxPendingPerKey)",
            ])
        let counts = reply.array?.map { $0.integer ?? 0 } ?? []
        guard counts.count == 4 else { throw RedisError.protocolError("the outbox's add script answered \(reply)") }
        for (cap, count) in zip([WebhookPendingCap.key, .endpoint, .total], counts.dropFirst()) where count > 0 {
            onDropped(cap, Int(count))
        }
        return counts[0] == 1
    }

    /// Up to `max` due deliveries, claimed for `policy.claimTimeout` (with their bodies).
    ///
    /// A plain range read first says whether anything is due: the sender asks on every idle poll
    /// (ten times a second), and a script call that finds nothing would cost Redis a script's setup
    /// each time.
    public func claimDue(max: Int, now: Timestamp = .now()) async throws -> [WebhookDelivery] {
        guard max > 0 else { return [] }
        let due = try await client.command(["ZRANGE", keys.due, "-inf", "\(now.millisecondsSince1970)", "BYSCORE", "LIMIT", "0", "1"])
        _ = try due.throwingOnError()
        guard due.array?.isEmpty == false else { return [] }
        let reply = try await client.evalsha(
            Self.claimScript, keys: [], arguments: [keys.root, "\(now.millisecondsSince1970)", "\(max)", "\(claimMilliseconds)"])
        return Self.claimed(reply)
    }

    /// Records a 2xx answer (as `markDelivered`) and claims up to `max` due deliveries (as
    /// `claimDue`), in one round trip.
    public func markDelivered(_ id: String, claimingUpTo max: Int, now: Timestamp = .now()) async throws -> [WebhookDelivery] {
        let reply = try await client.evalsha(
            Self.deliverAndClaimScript, keys: [],
            arguments: [keys.root, id, "\(now.millisecondsSince1970)", "\(max)", "\(claimMilliseconds)"])
        return Self.claimed(reply)
    }

    private var claimMilliseconds: Int64 { Int64(policy.claimTimeout.components.seconds * 1000) }

    /// The claim script's flattened [id, endpoint, event, body, attempt, createdAt]….
    private static func claimed(_ reply: RedisReply) -> [WebhookDelivery] {
        let fields = reply.array?.map { $0.string ?? "" } ?? []
        var claimed: [WebhookDelivery] = []
        var index = 0
        while index + 6 <= fields.count {
            let attempt = Int(fields[index + 4]) ?? 1
            let created = Timestamp(millisecondsSince1970: Int64(fields[index + 5]) ?? 0)
            claimed.append(
                WebhookDelivery(
                    id: fields[index], endpoint: fields[index + 1], event: fields[index + 2], orderKey: "",
                    attempt: attempt, createdAt: created, body: fields[index + 3]))
            index += 6
        }
        return claimed
    }

    /// Records a 2xx answer: the next delivery of its order becomes due.
    public func markDelivered(_ id: String, now: Timestamp = .now()) async throws {
        _ = try await client.evalsha(Self.finishScript, keys: [], arguments: [keys.root, id, "delivered", "", "\(now.millisecondsSince1970)"])
    }

    /// Records a failed attempt: retried at `next`, or failed for good when `next` is past the
    /// retry window.
    public func markAttemptFailed(_ delivery: WebhookDelivery, error: String, next: Timestamp, now: Timestamp = .now()) async throws {
        let deadline = delivery.createdAt.adding(policy.retryWindow)
        if next > deadline {
            try await markFailed(delivery.id, error: "\(error) (retried for \(policy.retryWindow))", now: now)
        } else {
            _ = try await client.evalsha(
                Self.retryScript, keys: [], arguments: [keys.root, delivery.id, "\(next.millisecondsSince1970)", error])
        }
    }

    /// Fails a delivery for good (the next of its order becomes due); `redeliver` can send it again.
    public func markFailed(_ id: String, error: String, now: Timestamp = .now()) async throws {
        _ = try await client.evalsha(Self.finishScript, keys: [], arguments: [keys.root, id, "failed", error, "\(now.millisecondsSince1970)"])
    }

    /// Sends a failed (or delivered) delivery again under the same id; `unknown` for an unknown or
    /// pending one.
    public func redeliver(_ id: String, now: Timestamp = .now()) async throws {
        let reply = try await client.evalsha(Self.redeliverScript, keys: [], arguments: [keys.root, id, "\(now.millisecondsSince1970)"])
        guard reply.integer == 1 else {
            throw WebhookError(.unknown, "no failed or delivered webhook delivery has id \(id) (darkroom webhook deliveries --failed)")
        }
    }

    /// Pending deliveries (oldest first), or failed ones (most recent first), without bodies.
    public func list(failed: Bool, limit: Int = 1000) async throws -> [WebhookDelivery] {
        try await list(failed: failed, after: nil, limit: limit).deliveries
    }

    /// How many deliveries a cap has failed since the fleet began.
    public func droppedCount() async throws -> Int {
        Int(try await client.command(["GET", keys.dropped]).string ?? "0") ?? 0
    }

    /// How many deliveries each cap has failed since the fleet began (caps that failed none are
    /// left out).
    public func droppedCounts() async throws -> [WebhookPendingCap: Int] {
        let values = try await client.command(["HGETALL", keys.droppedBy]).throwingOnError().array?.compactMap(\.string) ?? []
        var counts: [WebhookPendingCap: Int] = [:]
        for index in stride(from: 0, to: values.count - 1, by: 2) {
            if let cap = WebhookPendingCap(rawValue: values[index]), let count = Int(values[index + 1]) { counts[cap] = count }
        }
        return counts
    }
}
