import DarkroomFleetStatus
import DarkroomQueue
import Foundation

/// A batch's jobs, paged, from its job index (`{p}:batchjobs:<state>:<batch>`, one sorted set
/// per state not ended, and the ended states' buckets of 128 places, `BatchJobBuckets`; each
/// scored by the job's place in the batch): a page is one pipeline of range reads (one per state
/// asked for, each bounded by the page size), the buckets from the cursor's on, 64 a round trip,
/// until the page is full, and one pipeline of the jobs' records. A page over every state or a
/// common one reads a bucket or two; one over a rare state (`failed` in a batch that mostly
/// succeeded) may read every bucket after the cursor: about one range read per 128 jobs.
extension RedisCoordinatorStore {
    public func batchJobs(_ batch: String, state: BatchJobState?, after cursor: String?, limit: Int) async throws -> BatchJobPage {
        var after: Int64 = 0
        if let cursor {
            guard let position = BatchJobPage.position(ofCursor: cursor) else {
                throw JobQueueError(.invalidCursor, "'\(cursor.prefix(40))' is not a cursor of a batch's job list")
            }
            after = position
        }
        let count = max(limit, 1)
        let states = state.map { [$0] } ?? BatchJobState.allCases
        // Each set gives at most count + 1 jobs after the cursor; merged by place, the first
        // `count` are the page and one more says there is a next page. One set per state (for an
        // ended state, the one from before the buckets), and the batch's size, which bounds the
        // buckets.
        let sets = try await redis {
            try await self.queue.client.pipeline(
                states.map { self.placesAfter(after, in: self.keys.batchJobs($0.rawValue, batch), count: count) } + [
                    ["HGET", self.keys.batch(batch), "total"]
                ])
        }
        var found: [(place: Int64, id: JobID, state: BatchJobState)] = []
        for (state, reply) in zip(states, sets) { try Self.collect(reply, state, into: &found) }
        let total = sets.last?.string.flatMap(Int64.init) ?? 0
        // The ended states' buckets, in place order, a window at a time: until each state has
        // count + 1 jobs from them, or the jobs before the next bucket already fill the page.
        let ended = states.filter(BatchJobBuckets.isBucketed)
        var fromBuckets: [BatchJobState: Int] = [:]
        var nextBucket = BatchJobBuckets.bucket(ofPlace: after + 1)
        let last = total > 0 ? BatchJobBuckets.bucket(ofPlace: total) : -1
        while nextBucket <= last {
            let firstPlace = nextBucket * BatchJobBuckets.size + 1
            let open = ended.filter { fromBuckets[$0, default: 0] <= count }
            if open.isEmpty || found.count(where: { $0.place < firstPlace }) > count { break }
            let window = Array(nextBucket...min(nextBucket + Self.bucketWindow - 1, last))
            let reads = window.flatMap { bucket in open.map { (bucket, $0) } }
            let ranges = try await redis {
                try await self.queue.client.pipeline(
                    reads.map { self.placesAfter(after, in: self.keys.batchJobs($0.1.rawValue, bucket: $0.0, batch), count: count) })
            }
            for ((_, state), reply) in zip(reads, ranges) {
                let before = found.count
                try Self.collect(reply, state, into: &found)
                fromBuckets[state, default: 0] += found.count - before
            }
            nextBucket = window[window.count - 1] + 1
        }
        found.sort { $0.place < $1.place }
        let page = Array(found.prefix(count))
        let next = found.count > count ? page.last.map { BatchJobPage.cursor(atPosition: $0.place) } : nil
        guard !page.isEmpty else { return BatchJobPage(batch: batch, state: state, jobs: [], nextCursor: nil) }
        // The attempt and time come from a finished job's record in its marker, else from the
        // latest event its hash keeps while it runs (or kept, before records, once it ended): no
        // field of the index's own, which would cost every job memory for 7 days.
        let listed = page.filter { $0.state != .queued }
        let replies = try await redis {
            try await self.queue.client.pipeline(
                listed.flatMap { [["GET", self.keys.marker($0.id)], ["HGET", self.keys.jobState($0.id), "event"]] })
        }
        var latest = replies.makeIterator()
        let jobs = page.map { entry in
            guard entry.state != .queued, let marker = latest.next(), let hashed = latest.next() else {
                return BatchJobEntry(id: entry.id, state: entry.state, attempts: 0, updatedAt: nil)
            }
            if entry.state != .running, entry.state != .retrying, let record = marker.bytes.flatMap(FinishedJobRecord.init(marker:)) {
                return BatchJobEntry(id: entry.id, state: entry.state, attempts: record.attempt, updatedAt: record.endedAt)
            }
            var event: JobEvent?
            if let json = hashed.bytes, case .event(let decoded) = JobEvent.decode(Data(json)) { event = decoded }
            return BatchJobEntry(id: entry.id, state: entry.state, attempts: event?.attempt ?? 0, updatedAt: event?.at)
        }
        return BatchJobPage(batch: batch, state: state, jobs: jobs, nextCursor: next)
    }

    /// Buckets read per round trip when a page walks the ended states' buckets.
    private static let bucketWindow: Int64 = 64

    /// At most count + 1 members of the index set `key` placed after `after`, with their places.
    private func placesAfter(_ after: Int64, in key: String, count: Int) -> [String] {
        ["ZRANGE", key, "(\(after)", "+inf", "BYSCORE", "LIMIT", "0", String(count + 1), "WITHSCORES"]
    }

    /// Adds the jobs of a `ZRANGE … WITHSCORES` reply of `state`'s set to `found`.
    private static func collect(
        _ reply: RedisReply, _ state: BatchJobState, into found: inout [(place: Int64, id: JobID, state: BatchJobState)]
    ) throws {
        try throwing(reply)
        let items = reply.array ?? []
        for index in stride(from: 0, to: items.count - 1, by: 2) {
            guard let text = items[index].string, let id = JobID(rawValue: text), let place = items[index + 1].string.flatMap(Double.init)
            else { continue }
            found.append((Int64(place), id, state))
        }
    }
}
