import DarkroomFleetStatus
import DarkroomQueue
import Foundation

/// A batch's jobs, paged, from its job index (`{p}:batchjobs:<state>:<batch>`, one sorted set
/// per state scored by each job's place in the batch): a page is one pipeline of range reads (one
/// per state asked for, each bounded by the page size) and one of the jobs' records, so it costs
/// O(page) whatever the batch's size.
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
        // Each state's set gives at most count + 1 jobs after the cursor; merged by place, the
        // first `count` are the page and one more says there is a next page.
        let ranges = try await redis {
            try await self.queue.client.pipeline(
                states.map { state in
                    [
                        "ZRANGE", self.keys.batchJobs(state.rawValue, batch), "(\(after)", "+inf", "BYSCORE", "LIMIT", "0", String(count + 1),
                        "WITHSCORES",
                    ]
                })
        }
        var found: [(place: Int64, id: JobID, state: BatchJobState)] = []
        for (state, reply) in zip(states, ranges) {
            try Self.throwing(reply)
            let items = reply.array ?? []
            for index in stride(from: 0, to: items.count - 1, by: 2) {
                guard let text = items[index].string, let id = JobID(rawValue: text),
                    let place = items[index + 1].string.flatMap(Double.init)
                else { continue }
                found.append((Int64(place), id, state))
            }
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
}
