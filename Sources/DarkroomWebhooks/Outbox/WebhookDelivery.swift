import DarkroomQueue

/// One notification to one endpoint, as the outbox keeps it: the body is fixed when the delivery
/// is made, so every attempt and every redelivery sends the same bytes under the same id.
public struct WebhookDelivery: Sendable, Hashable, Codable {
    public enum State: String, Sendable, Hashable, Codable {
        /// Waiting for its turn or its next attempt.
        case pending
        /// The receiver answered 2xx (kept 7 days, then forgotten).
        case delivered
        /// Retries ran out, a cap dropped it, or its endpoint was removed; `redeliver` sends it again.
        case failed
    }

    /// `Darkroom-Delivery`: the event id it notifies of, and the sequence for a batch end, so the
    /// same notification always has the same id.
    public var id: String
    public var endpoint: String
    /// `Darkroom-Event`: `job.succeeded`, `job.failed`, `job.dead`, `job.cancelled`.
    public var event: String
    /// Deliveries with one order key (`job:ID`) are sent one at a time, in the order they were made.
    public var orderKey: String
    /// Attempts made so far.
    public var attempt: Int
    public var createdAt: Timestamp
    /// When the next attempt is due (pending deliveries).
    public var nextAttemptAt: Timestamp?
    public var state: State
    /// Why the latest attempt failed.
    public var lastError: String?
    /// The JSON POSTed (left out of listings unless asked for).
    public var body: String?
    /// The id of the API key that submitted the job (or first submitted into the batch) the
    /// delivery notifies of; nil for work enqueued without one (the CLI's), which shares one
    /// per-key cap. Set when the delivery is made.
    public var owner: String?

    public init(
        id: String, endpoint: String, event: String, orderKey: String, attempt: Int = 0, createdAt: Timestamp,
        nextAttemptAt: Timestamp? = nil, state: State = .pending, lastError: String? = nil, body: String? = nil, owner: String? = nil
    ) {
        self.id = id
        self.endpoint = endpoint
        self.event = event
        self.orderKey = orderKey
        self.attempt = attempt
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt
        self.state = state
        self.lastError = lastError
        self.body = body
        self.owner = owner
    }
}

/// The outbox's limits and retry schedule (docs/http-api.md states them).
public struct WebhookDeliveryPolicy: Sendable, Hashable {
    /// How long a delivery is retried from its creation before it fails: 24 hours.
    public var retryWindow: Duration = .seconds(24 * 3600)
    /// The most pending deliveries per endpoint; past it the oldest fail (counted as dropped).
    public var maxPendingPerEndpoint = 10_000
    /// The most pending deliveries of one API key's work (`WebhookDelivery.owner`; work enqueued
    /// without a key shares one such cap); past it the key's oldest fail.
    public var maxPendingPerKey = 10_000
    /// The most pending deliveries in total; past it the oldest of all fail.
    public var maxPending = 100_000
    /// How long a claimed delivery is someone's before another sender may take it (longer than
    /// any request's timeout).
    public var claimTimeout: Duration = .seconds(60)

    public init() {}
}
