import DarkroomFleetStatus

/// How a batch's job index keeps its ended jobs: split by place into sorted sets of at most
/// `size` members, `{p}:batchjobs:<state>/<bucket>:<batch>` with bucket = (place − 1) / `size`,
/// so Redis keeps each as a listpack (its `zset-max-listpack-entries`, 128 by default) at about
/// 50 bytes a job instead of the 150 of one large sorted set (a skip list and a hash table).
/// Jobs not ended (`queued`, `running`, `retrying`) stay in one set per state: they are few once
/// a batch is under way, and the fold finds a job's place there by its id when it ends.
enum BatchJobBuckets {
    static let size: Int64 = 128

    /// The states whose sets are split.
    static func isBucketed(_ state: BatchJobState) -> Bool {
        switch state {
        case .succeeded, .failed, .dead, .cancelled: true
        case .queued, .running, .retrying: false
        }
    }

    /// The bucket holding `place` (1, 2, …).
    static func bucket(ofPlace place: Int64) -> Int64 { (max(place, 1) - 1) / size }
}
