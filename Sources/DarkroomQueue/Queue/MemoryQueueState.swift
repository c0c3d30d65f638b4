import Foundation

/// The data of a `MemoryQueue`, with the synchronous operations on it. The actor adds waiting and
/// the clock; everything that decides *what happens* is here, mirroring the Redis layout: one
/// ready FIFO per priority and requirement set (streams), a time-ordered delayed list (sorted set), a pending table
/// (the consumer group's PEL), an event log and a dead-letter list.
struct MemoryQueueState {
    struct Entry {
        var sequence: UInt64
        var payload: Data
        var priority: JobPriority
        var decoded: JobDecoding

        /// The capabilities its job requires (none for garbage and unknown versions).
        var requires: [String]? {
            if case .job(let job) = decoded { return job.requires }
            return nil
        }
    }

    struct Pending {
        var entry: Entry
        var consumer: String
        var deliveryCount: Int
        var leasedAt: Timestamp
    }

    struct Delayed {
        var due: Timestamp
        var entry: Entry
    }

    let configuration: JobQueueConfiguration
    var nextSequence: UInt64 = 1
    /// One lane per priority and requirement set (the Redis driver's streams).
    var ready = ReadyLanes<Entry>()
    /// Sorted by `due`, then sequence.
    var delayed: [Delayed] = []
    var pending: [UInt64: Pending] = [:]
    /// Every id ever enqueued, with the batch it was first enqueued into (Redis: `{p}:job:<id>`).
    var knownIDs: [JobID: String] = [:]
    var events = FIFO<(sequence: UInt64, event: JobEvent)>()
    var nextEventSequence: UInt64 = 1
    var deadLetters: [DeadLetter] = []
    var batches: [String: BatchProgress] = [:]
    /// Kept by `append`, from the events that change a batch's counts.
    var batchTimes: [String: BatchTimes] = [:]
    var workers: [String: (info: WorkerInfo, expires: Timestamp)] = [:]

    init(configuration: JobQueueConfiguration) { self.configuration = configuration }

    // MARK: Entries

    mutating func makeEntry(payload: Data, priority: JobPriority) -> Entry {
        defer { nextSequence += 1 }
        return Entry(sequence: nextSequence, payload: payload, priority: priority, decoded: Job.decode(payload))
    }

    /// Puts an entry where it belongs: delayed when `due` is after `now`, else ready.
    mutating func place(_ entry: Entry, due: Timestamp?, now: Timestamp) {
        if let due, due > now {
            let item = Delayed(due: due, entry: entry)
            let index = delayed.partitioningIndex { ($0.due, $0.entry.sequence) > (due, entry.sequence) }
            delayed.insert(item, at: index)
        } else {
            ready.append(entry, rank: entry.priority.rank, requires: entry.requires)
        }
    }

    /// Moves every delayed entry due by `now` to the tail of its ready FIFO, in due order.
    mutating func promoteDue(now: Timestamp) {
        let dueCount = delayed.partitioningIndex { $0.due > now }
        guard dueCount > 0 else { return }
        for item in delayed[..<dueCount] {
            ready.append(item.entry, rank: item.entry.priority.rank, requires: item.entry.requires)
        }
        delayed.removeFirst(dueCount)
    }

    /// The earliest time a delayed entry becomes due.
    var nextDue: Timestamp? { delayed.first?.due }

    static func tag(_ sequence: UInt64) -> DeliveryTag { DeliveryTag(rawValue: "m-\(sequence)") }

    static func sequence(of tag: DeliveryTag) -> UInt64? {
        guard tag.rawValue.hasPrefix("m-") else { return nil }
        return UInt64(tag.rawValue.dropFirst(2))
    }

    // MARK: Events and dead letters

    mutating func append(_ event: JobEvent) {
        events.append((nextEventSequence, event))
        nextEventSequence += 1
        // Every batch count changes with one of these events, so the batch's times follow them
        // here, like the Redis scripts stamp them beside the counters.
        if let batch = event.batch {
            if event.type == .batchEnqueued, batchTimes[batch] == nil {
                batchTimes[batch] = BatchTimes(enqueuedAt: event.at)
            } else if event.isTerminal, batches[batch] != nil {
                batchTimes[batch]?.endedAt = event.at
            }
        }
        // Like `MAXLEN ~`: trim in chunks, keeping at least the configured number.
        let retention = configuration.eventRetention
        if events.count > retention + max(retention / 8, 1) {
            while events.count > retention { _ = events.popFirst() }
        }
    }

    mutating func addDeadLetter(_ entry: Entry, error: JobError, at now: Timestamp) {
        var job: Job?
        if case .job(let decoded) = entry.decoded { job = decoded }
        deadLetters.append(DeadLetter(id: "d-\(entry.sequence)", at: now, job: job, payload: entry.payload, error: error))
    }

    /// Dead-letters an entry that left the pending table, with a `dead` event when the job can be
    /// named (and its source and chain when this build can read the record).
    mutating func bury(_ pending: Pending, error: JobError, worker: String?, attempt: Int, now: Timestamp) {
        addDeadLetter(pending.entry, error: error, at: now)
        if let (id, batch) = MemoryQueueState.identity(of: pending.entry) {
            var job: Job?
            if case .job(let decoded) = pending.entry.decoded { job = decoded }
            append(
                .dead(
                    job: id, batch: batch, worker: worker, attempt: max(attempt, 1), error: error, source: job?.source,
                    chain: job?.chain, at: now))
            batches[batch]?.dead += 1
        }
    }

    /// The job id and batch of an entry, also for a record of an unknown version when it has them.
    static func identity(of entry: Entry) -> (JobID, String)? {
        switch entry.decoded {
        case .job(let job):
            return (job.id, job.batch)
        case .unknownVersion:
            struct Probe: Decodable {
                var id: JobID
                var batch: String
            }
            guard let probe = try? JSONDecoder().decode(Probe.self, from: entry.payload) else { return nil }
            return (probe.id, probe.batch)
        case .garbage:
            return nil
        }
    }
}

extension Array {
    /// The first index whose element satisfies `belongsToSecondPart`, for an array already
    /// partitioned by it (binary search).
    fileprivate func partitioningIndex(where belongsToSecondPart: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if belongsToSecondPart(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
