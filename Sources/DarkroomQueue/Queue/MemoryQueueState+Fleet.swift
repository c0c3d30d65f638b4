import Foundation

/// Handing back, dead-letter maintenance, event cursors by time and the worker registry, over
/// `MemoryQueueState`. Semantics are those documented on `JobQueueDriver`.
extension MemoryQueueState {
    mutating func release(_ delivery: JobDelivery, after delay: Duration, now: Timestamp) -> Bool {
        guard let sequence = Self.sequence(of: delivery.tag), let held = pending[sequence],
            held.consumer == delivery.consumer
        else { return false }
        pending[sequence] = nil
        // The same record (same attempt) as a fresh entry: its delivery count starts again at 1,
        // which is what "without using up an attempt" means.
        let due = delay > .zero ? now.adding(delay) : nil
        place(makeEntry(payload: held.entry.payload, priority: held.entry.priority), due: due, now: now)
        return true
    }

    mutating func retryDeadLetters(ids: [String]?, now: Timestamp) -> Int {
        let wanted = ids.map(Set.init)
        var kept: [DeadLetter] = []
        var requeued = 0
        for letter in deadLetters {
            guard wanted?.contains(letter.id) ?? true, var job = letter.job,
                let payload = try? {
                    job.attempt = 1
                    job.notBefore = nil
                    return try job.jsonData()
                }()
            else {
                kept.append(letter)
                continue
            }
            place(makeEntry(payload: payload, priority: job.priority), due: nil, now: now)
            if batches[job.batch] != nil { batches[job.batch]!.dead = max(batches[job.batch]!.dead - 1, 0) }
            requeued += 1
        }
        deadLetters = kept
        return requeued
    }

    mutating func purgeDeadLetters() -> Int {
        defer { deadLetters = [] }
        return deadLetters.count
    }

    /// The sequence just before the first retained event at or after `time`.
    func eventSequence(before time: Timestamp) -> UInt64 {
        guard let first = events.first else { return nextEventSequence - 1 }
        for item in events.elements where item.event.at >= time { return item.sequence - 1 }
        return first.sequence + UInt64(events.count) - 1
    }

    mutating func heartbeat(_ worker: WorkerInfo, ttl: Duration, now: Timestamp) {
        workers[worker.name] = (worker, now.adding(ttl))
    }

    func liveWorkers(now: Timestamp) -> [WorkerInfo] {
        workers.values.filter { $0.expires > now }.map(\.info).sorted { $0.name < $1.name }
    }
}
