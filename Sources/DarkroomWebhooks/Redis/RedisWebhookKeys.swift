/// The Redis keys of webhooks under the fleet's prefix (docs/queue.md):
///
/// - `P:webhooks:endpoints` hash, name → endpoint record (JSON, no secret);
/// - `P:webhooks:secrets:NAME` list of live secrets, oldest first (1 or 2);
/// - `P:webhooks:sub:JOB` string, the endpoint a job notifies, kept 7 days;
/// - `P:webhooks:batchsub:BATCH` string, the endpoint a batch's end notifies, kept 7 days;
/// - `P:webhooks:batchend:BATCH` hash, `sequence` and `counts` of its latest `batch.ended`;
/// - `P:webhooks:d:ID` hash, one delivery (`WebhookDelivery`, its body with it);
/// - `P:webhooks:order:KEY` list, a job's (or batch's) deliveries in order; only its head is due;
/// - `P:webhooks:due` sorted set, delivery id → next attempt (ms);
/// - `P:webhooks:pending`, `P:webhooks:pending:NAME` and `P:webhooks:pending-key:KEY` sorted
///   sets, id → creation (ms), for the caps (total, per endpoint, per API key id; `-` for work
///   enqueued without a key);
/// - `P:webhooks:failed` sorted set, id → failure time (ms); `P:webhooks:dropped` the count of
///   deliveries failed by a cap, `P:webhooks:dropped-by` hash, cap (`key`, `endpoint`, `total`) →
///   count;
/// - `P:webhooks:cursor` the notifier's checkpoint in the event stream; `P:webhooks:lease` who runs it.
struct RedisWebhookKeys: Sendable {
    /// `P:webhooks:`, the root every key above starts with (Lua scripts build per-id keys from it).
    let root: String

    init(prefix: String) { root = "\(prefix):webhooks:" }

    var endpoints: String { root + "endpoints" }
    func secrets(_ name: String) -> String { root + "secrets:" + name }
    func subscription(_ job: String) -> String { root + "sub:" + job }
    func batchSubscription(_ batch: String) -> String { root + "batchsub:" + batch }
    func batchEnd(_ batch: String) -> String { root + "batchend:" + batch }
    func delivery(_ id: String) -> String { root + "d:" + id }
    var due: String { root + "due" }
    var pending: String { root + "pending" }
    func pending(_ endpoint: String) -> String { root + "pending:" + endpoint }
    var failed: String { root + "failed" }
    var dropped: String { root + "dropped" }
    var droppedBy: String { root + "dropped-by" }
    var cursor: String { root + "cursor" }
    var lease: String { root + "lease" }
}
