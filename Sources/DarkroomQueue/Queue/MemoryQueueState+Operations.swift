import Foundation

/// The queue operations, synchronous over `MemoryQueueState`. Semantics are those documented on
/// `JobQueueDriver`; comments here only explain choices specific to memory.
extension MemoryQueueState {
    /// Says what became of each job. Jobs are validated by the caller.
    mutating func enqueue(_ jobs: [Job], payloads: [Data], now: Timestamp) -> EnqueueReport {
        var newPerBatch: [(batch: String, count: Int)] = []
        var report = EnqueueReport()
        for (job, payload) in zip(jobs, payloads) {
            if let holder = knownIDs[job.id] {
                report.known += 1
                if holder != job.batch { report.addElsewhere(holder, count: 1) }
                continue
            }
            knownIDs[job.id] = job.batch
            place(makeEntry(payload: payload, priority: job.priority), due: job.notBefore, now: now)
            if let index = newPerBatch.firstIndex(where: { $0.batch == job.batch }) {
                newPerBatch[index].count += 1
            } else {
                newPerBatch.append((job.batch, 1))
            }
        }
        for (batch, count) in newPerBatch {
            append(.batchEnqueued(batch: batch, count: count, at: now))
            batches[batch, default: BatchProgress()].total += count
        }
        report.added = newPerBatch.reduce(0) { $0 + $1.count }
        return report
    }

    mutating func reserve(consumer: String, max: Int, offering: Set<String>, now: Timestamp) -> [JobDelivery] {
        promoteDue(now: now)
        var deliveries: [JobDelivery] = []
        while deliveries.count < max, let entry = ready.popFirst(offering: offering) {
            switch entry.decoded {
            case .job(let job):
                pending[entry.sequence] = Pending(entry: entry, consumer: consumer, deliveryCount: 1, leasedAt: now)
                deliveries.append(JobDelivery(tag: Self.tag(entry.sequence), job: job, consumer: consumer, deliveryCount: 1))
            case .unknownVersion:
                // Delivered (as XREADGROUP would) but not returned: it waits, pending, for a newer worker.
                pending[entry.sequence] = Pending(entry: entry, consumer: consumer, deliveryCount: 1, leasedAt: now)
            case .garbage(let reason):
                addDeadLetter(entry, error: .garbage(reason), at: now)
            }
        }
        return deliveries
    }

    /// The attempt a pending entry is on, by the queue's own count (not the caller's copy).
    static func attempt(of pending: Pending) -> Int {
        guard case .job(let job) = pending.entry.decoded else { return pending.deliveryCount }
        return job.attempt + pending.deliveryCount - 1
    }

    mutating func acknowledge(_ delivery: JobDelivery, outcome: JobOutcome, now: Timestamp) -> Bool {
        guard let sequence = Self.sequence(of: delivery.tag), let finished = pending.removeValue(forKey: sequence),
            case .job(let job) = finished.entry.decoded
        else { return false }
        let attempt = Self.attempt(of: finished)
        switch outcome {
        case .succeeded(let result):
            append(
                .succeeded(
                    job: job.id, batch: job.batch, worker: delivery.consumer, attempt: attempt, result: result,
                    source: job.source, chain: job.chain, metadata: job.metadata, at: now))
            batches[job.batch]?.succeeded += 1
        case .failed(let error):
            append(
                .failed(
                    job: job.id, batch: job.batch, worker: delivery.consumer, attempt: attempt, error: error,
                    willRetry: false, source: job.source, chain: job.chain, metadata: job.metadata, at: now))
            batches[job.batch]?.failed += 1
        }
        return true
    }

    mutating func retry(_ delivery: JobDelivery, after delay: Duration, error: JobError, now: Timestamp) throws -> RetryDisposition {
        guard let sequence = Self.sequence(of: delivery.tag), let finished = pending[sequence],
            case .job(let job) = finished.entry.decoded
        else { return .notPending }
        let attempt = Self.attempt(of: finished)
        if attempt >= configuration.maxAttempts {
            pending[sequence] = nil
            bury(finished, error: error, worker: delivery.consumer, attempt: attempt, now: now)
            return .deadLettered
        }
        var next = job
        next.attempt = attempt + 1
        next.lastError = error
        let due = now.adding(max(delay, .zero))
        next.notBefore = due
        // Encode before changing anything, so a failure leaves the entry pending.
        let payload = try next.jsonData()
        pending[sequence] = nil
        place(makeEntry(payload: payload, priority: next.priority), due: due, now: now)
        append(
            .failed(
                job: job.id, batch: job.batch, worker: delivery.consumer, attempt: attempt, error: error,
                willRetry: true, at: now))
        return .scheduled(at: due)
    }

    mutating func deadLetter(_ delivery: JobDelivery, error: JobError, now: Timestamp) -> Bool {
        guard let sequence = Self.sequence(of: delivery.tag), let finished = pending.removeValue(forKey: sequence) else {
            return false
        }
        bury(finished, error: error, worker: delivery.consumer, attempt: Self.attempt(of: finished), now: now)
        return true
    }

    mutating func extendLease(_ delivery: JobDelivery, now: Timestamp) -> Bool {
        guard let sequence = Self.sequence(of: delivery.tag), let held = pending[sequence],
            held.consumer == delivery.consumer
        else { return false }
        pending[sequence]?.leasedAt = now
        return true
    }

    mutating func reclaimStale(consumer: String, olderThan: Duration, max: Int, offering: Set<String>, now: Timestamp) -> ReclaimResult {
        var result = ReclaimResult()
        // Oldest entry first, as XAUTOCLAIM scans the PEL by id; a job this consumer cannot honour
        // stays where it is, for one that can (Redis: its lane is not scanned).
        let stale = pending.values.filter {
            now.duration(since: $0.leasedAt) >= olderThan && Capabilities.satisfies(offering, $0.entry.requires)
        }
        .map(\.entry.sequence).sorted()
        for sequence in stale {
            guard result.deliveries.count < max, var held = pending[sequence] else { break }
            held.deliveryCount += 1
            held.consumer = consumer
            held.leasedAt = now
            switch held.entry.decoded {
            case .job(let job):
                if Self.attempt(of: held) > configuration.maxAttempts {
                    pending[sequence] = nil
                    let lastAttempt = Self.attempt(of: held) - 1
                    bury(
                        held, error: .stalled(attempt: lastAttempt, deliveries: held.deliveryCount - 1, previous: job.lastError),
                        worker: consumer, attempt: lastAttempt, now: now)
                    result.deadLettered += 1
                } else {
                    pending[sequence] = held
                    result.deliveries.append(
                        JobDelivery(
                            tag: Self.tag(sequence), job: job, consumer: consumer,
                            deliveryCount: held.deliveryCount))
                }
            case .unknownVersion(let version):
                if held.deliveryCount > configuration.maxAttempts {
                    pending[sequence] = nil
                    let made = held.deliveryCount - 1
                    bury(held, error: .unknownVersion(version, deliveries: made), worker: consumer, attempt: made, now: now)
                    result.deadLettered += 1
                } else {
                    // Claimed but not returned: this worker cannot read it either.
                    pending[sequence] = held
                }
            case .garbage(let reason):
                pending[sequence] = nil
                addDeadLetter(held.entry, error: .garbage(reason), at: now)
                result.deadLettered += 1
            }
        }
        return result
    }

    /// Drops ready and delayed jobs matching `predicate`, one `cancelled` event each.
    mutating func cancel(now: Timestamp, where predicate: (Job) -> Bool) -> Int {
        func matches(_ entry: Entry) -> Bool {
            if case .job(let job) = entry.decoded { return predicate(job) }
            return false
        }
        var dropped: [Entry] = []
        dropped += ready.removeAll(where: matches)
        dropped += delayed.filter { matches($0.entry) }.map(\.entry)
        delayed.removeAll { matches($0.entry) }
        // Events in queue order, so followers see them in the order the jobs were queued.
        for entry in dropped.sorted(by: { $0.sequence < $1.sequence }) {
            if case .job(let job) = entry.decoded {
                append(.cancelled(job: job.id, batch: job.batch, attempt: job.attempt, source: job.source, chain: job.chain, metadata: job.metadata, at: now))
                batches[job.batch]?.cancelled += 1
            }
        }
        return dropped.count
    }

    func readEvents(after sequence: UInt64, limit: Int) -> [EventEnvelope] {
        guard let first = events.first?.sequence, limit > 0 else { return [] }
        // Sequences are consecutive, so the start is found by arithmetic, not a scan.
        let skip = sequence >= first ? Int(sequence - first + 1) : 0
        guard skip < events.count else { return [] }
        let slice = events.elements.dropFirst(skip).prefix(limit)
        return slice.map { EventEnvelope(cursor: EventCursor(rawValue: String($0.sequence)), event: $0.event) }
    }

    var counts: QueueCounts {
        var readyCounts: [JobPriority: Int] = [:]
        for priority in JobPriority.allCases { readyCounts[priority] = ready.count(rank: priority.rank) }
        return QueueCounts(ready: readyCounts, delayed: delayed.count, pending: pending.count, deadLettered: deadLetters.count)
    }
}
