import DarkroomQueue

extension RedisStreamsQueue {
    /// New jobs per batch over the chunks of one call, batches in first-seen order.
    struct BatchTally {
        var added = 0
        var order: [String] = []
        var counts: [String: Int] = [:]

        /// Adds the replies of the chunk scripts (`{added, count per batch}`), whose batches are
        /// `batches[i]` for reply `i`.
        mutating func add(_ replies: [RedisReply], batches: [[String]]) throws {
            for (reply, names) in zip(replies, batches) {
                guard let items = reply.array, items.count == names.count + 1,
                    let total = items[0].integer
                else {
                    throw RedisStreamsQueue.queueError(.protocolError("the enqueue script answered \(reply)"))
                }
                added += Int(total)
                for (name, item) in zip(names, items.dropFirst()) {
                    guard let count = item.integer else {
                        throw RedisStreamsQueue.queueError(.protocolError("the enqueue script answered \(reply)"))
                    }
                    guard count > 0 else { continue }
                    if counts[name] == nil { order.append(name) }
                    counts[name, default: 0] += Int(count)
                }
            }
        }
    }

    /// Publishes one `batchEnqueued` per batch that got new jobs, in one script run.
    func announce(_ tally: BatchTally, at now: Timestamp) async throws {
        let events = tally.order.compactMap { batch -> JobEvent? in
            guard let count = tally.counts[batch], count > 0 else { return nil }
            return JobEvent.batchEnqueued(batch: batch, count: count, at: now)
        }
        try await appendEvents(events)
    }
}
