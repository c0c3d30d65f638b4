import DarkroomQueue
import DarkroomRedis

/// The outbox's listings a page at a time. A cursor is the place of the last delivery listed,
/// `<score>:<id>` (its sorted set's score — creation ms for pending, failure ms for failed — and
/// its id): the next page starts after that place whether or not the delivery is still there, so
/// deliveries that leave the list meanwhile (delivered, failed for good) shift nothing.
extension RedisWebhookOutbox {
    /// One page of deliveries: pending ones (oldest first) or failed ones (most recent first),
    /// without bodies, after the place `cursor` names (nil: from the start), at most `limit`; and
    /// the cursor of the next page, nil on the last. `webhook.invalid` for a cursor no page gave.
    public func list(failed: Bool, after cursor: String?, limit: Int) async throws -> (deliveries: [WebhookDelivery], nextCursor: String?) {
        let key = failed ? keys.failed : keys.pending
        let count = max(limit, 1)
        var start = 0
        if let cursor {
            guard let place = Self.place(ofCursor: cursor) else {
                throw WebhookError(.invalid, "'\(cursor.prefix(60))' is not a cursor of a webhook delivery list")
            }
            let (score, id) = place
            // Before the place: every delivery of a lower score (higher, for the failed list,
            // which runs newest first), and those of the same score up to its id in the order
            // Redis sorts ties (by bytes; reversed for the failed list).
            let replies = try await client.pipeline([
                failed ? ["ZCOUNT", key, "(\(score)", "+inf"] : ["ZCOUNT", key, "-inf", "(\(score)"],
                ["ZRANGE", key, "\(score)", "\(score)", "BYSCORE"],
            ])
            let ties = try replies[1].throwingOnError().array?.compactMap(\.string) ?? []
            let mark = Array(id.utf8)
            let tiesBefore = ties.filter { tie in
                let bytes = Array(tie.utf8)
                return failed ? !bytes.lexicographicallyPrecedes(mark) : !mark.lexicographicallyPrecedes(bytes)
            }
            start = Int(try replies[0].throwingOnError().integer ?? 0) + tiesBefore.count
        }
        let range = [key, String(start), String(start + count), "WITHSCORES"]
        let reply = try await client.command((failed ? ["ZREVRANGE"] : ["ZRANGE"]) + range).throwingOnError()
        let items = reply.array ?? []
        var places: [(id: String, score: Int64)] = []
        for index in stride(from: 0, to: items.count - 1, by: 2) {
            guard let id = items[index].string, let score = items[index + 1].string.flatMap(Double.init) else { continue }
            places.append((id, Int64(score)))
        }
        let page = Array(places.prefix(count))
        let next = places.count > count ? page.last.map { "\($0.score):\($0.id)" } : nil
        return (try await deliveries(page.map(\.id)), next)
    }

    /// Whether `text` is a cursor `list(failed:after:limit:)` gave.
    public static func isCursor(_ text: String) -> Bool { place(ofCursor: text) != nil }

    static func place(ofCursor text: String) -> (score: Int64, id: String)? {
        guard let colon = text.firstIndex(of: ":"), let score = Int64(text[..<colon]), score >= 0 else { return nil }
        let id = String(text[text.index(after: colon)...])
        return id.isEmpty ? nil : (score, id)
    }

    /// The deliveries with these ids, in that order, without bodies; ids gone meanwhile are left out.
    func deliveries(_ ids: [String]) async throws -> [WebhookDelivery] {
        guard !ids.isEmpty else { return [] }
        let fields = ["id", "endpoint", "event", "orderKey", "attempt", "createdAt", "nextAttemptAt", "state", "lastError"]
        let replies = try await client.pipeline(ids.map { ["HMGET", keys.delivery($0)] + fields })
        return replies.compactMap { reply -> WebhookDelivery? in
            let values = reply.array?.map(\.string) ?? []
            guard values.count == fields.count, let id = values[0], let endpoint = values[1] else { return nil }
            return WebhookDelivery(
                id: id, endpoint: endpoint, event: values[2] ?? "", orderKey: values[3] ?? "",
                attempt: Int(values[4] ?? "") ?? 0,
                createdAt: Timestamp(millisecondsSince1970: Int64(values[5] ?? "") ?? 0),
                nextAttemptAt: values[6].flatMap { Int64($0) }.map { Timestamp(millisecondsSince1970: $0) },
                state: WebhookDelivery.State(rawValue: values[7] ?? "") ?? .pending, lastError: values[8])
        }
    }
}
