import DarkroomQueue

extension RedisStreamsQueue {
    /// New jobs per batch over the chunks of one call, batches in first-seen order, and where the
    /// skipped ones are.
    struct BatchTally {
        var report = EnqueueReport()
        var order: [String] = []
        var counts: [String: Int] = [:]

        /// Adds the replies of the chunk scripts (`{added, count per batch, skipped, then name and
        /// count per other batch}`), whose batches are `batches[i]` for reply `i`.
        mutating func add(_ replies: [RedisReply], batches: [[String]]) throws {
            for (reply, names) in zip(replies, batches) {
                guard let items = reply.array, items.count >= names.count + 2, (items.count - names.count) % 2 == 0,
                    let total = items[0].integer, let skipped = items[names.count + 1].integer
                else {
                    throw RedisStreamsQueue.queueError(.protocolError("the enqueue script answered \(reply)"))
                }
                report.added += Int(total)
                report.known += Int(skipped)
                var index = names.count + 2
                while index + 1 < items.count {
                    guard let holder = items[index].string, let count = items[index + 1].integer else {
                        throw RedisStreamsQueue.queueError(.protocolError("the enqueue script answered \(reply)"))
                    }
                    report.addElsewhere(holder, count: Int(count))
                    index += 2
                }
                for (name, item) in zip(names, items.dropFirst().prefix(names.count)) {
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
