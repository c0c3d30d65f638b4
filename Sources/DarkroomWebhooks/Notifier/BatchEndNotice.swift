import DarkroomQueue
import DarkroomRedis

/// `batch.ended`: when a terminal event leaves a subscribed batch complete, one delivery per
/// *ending*. A batch that reopens (a later enqueue into it, a dead letter retried) and ends again
/// is notified again with the next `sequence`; its counts tell the endings apart, so reading the
/// same events twice adds nothing.
///
/// The delivery id is `batch:<name>:<sequence>`, written before the sequence is recorded: a crash
/// between the two makes the same id again, which the outbox ignores.
struct BatchEndNotice {
    let client: RedisClient
    let keys: RedisWebhookKeys
    let outbox: RedisWebhookOutbox

    /// `owner`: the key that first submitted into the batch (its per-key cap), nil for none.
    func notify(batch: String, endpoint: String, owner: String?, progress: BatchProgress, at time: Timestamp) async throws {
        guard progress.isComplete, progress.total > 0 else { return }
        let counts = "\(progress.total),\(progress.succeeded),\(progress.failed),\(progress.dead),\(progress.cancelled)"
        let recorded = try await client.command(["HMGET", keys.batchEnd(batch), "sequence", "counts"]).throwingOnError().array ?? []
        let previous = recorded.first?.string.flatMap { Int($0) } ?? 0
        if recorded.count == 2, recorded[1].string == counts { return }
        let sequence = previous + 1
        let id = "batch:\(batch):\(sequence)"
        try await outbox.add(
            WebhookDelivery(
                id: id, endpoint: endpoint, event: "batch.ended", orderKey: "batch:" + batch, createdAt: time,
                body: Self.body(id: id, batch: batch, sequence: sequence, progress: progress, at: time), owner: owner))
        _ = try await client.command(["HSET", keys.batchEnd(batch), "sequence", "\(sequence)", "counts", counts]).throwingOnError()
        _ = try await client.command(["EXPIRE", keys.batchEnd(batch), "\(RedisWebhookSubscriptions.retention)"])
    }

    /// `{"batch":{"cancelled","dead","endedAt","failed","name","sequence","succeeded","total"},"delivery","type":"batch.ended"}`.
    static func body(id: String, batch: String, sequence: Int, progress: BatchProgress, at time: Timestamp) -> String {
        func json(_ text: String) -> [UInt8] {
            var out: [UInt8] = []
            JobJSONWriter.string(text, into: &out)
            return out
        }
        // Keys in sorted order, as every Darkroom record writes them.
        let fields: [(String, [UInt8])] = [
            ("cancelled", Array("\(progress.cancelled)".utf8)), ("dead", Array("\(progress.dead)".utf8)),
            ("endedAt", json(time.iso8601)), ("failed", Array("\(progress.failed)".utf8)), ("name", json(batch)),
            ("sequence", Array("\(sequence)".utf8)), ("succeeded", Array("\(progress.succeeded)".utf8)),
            ("total", Array("\(progress.total)".utf8)),
        ]
        var out = Array(#"{"batch":{"#.utf8)
        for (index, (key, value)) in fields.enumerated() {
            out += Array((index == 0 ? "" : ",").utf8) + json(key) + [UInt8(ascii: ":")] + value
        }
        out += Array(#"},"delivery":"#.utf8) + json(id) + Array(#","type":"batch.ended"}"#.utf8)
        return String(decoding: out, as: UTF8.self)
    }
}
