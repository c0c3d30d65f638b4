import DarkroomQueue

/// The Redis key names of one queue (all under `keyPrefix`, default `darkroom`), and the delivery
/// tags that point at stream entries.
///
/// | key | type | holds |
/// |---|---|---|
/// | `{p}:jobs:high`, `{p}:jobs:normal`, `{p}:jobs:low` | stream | one entry per unfinished job that requires no capability, field `job` = job JSON; consumer group `workers` |
/// | `{p}:jobs:<priority>/<capabilities>` | stream | the same, for jobs that require these capabilities (`StreamLane`), e.g. `{p}:jobs:normal/output-name` |
/// | `{p}:lanes` | set | the tokens (`normal/output-name`) of every capability lane ever used, so workers and tools find them |
/// | `{p}:delayed` | sorted set | score = due time (ms since 1970), member = `<lane token>|<job JSON>` (`normal|{…}`) |
/// | `{p}:job:<id>` | string | idempotency marker, value = batch, expires after the idempotency window; once the job has ended and the coordinator folded its terminal event, value = the job's finished record (`FinishedJobRecord`), expiring a window after that fold |
/// | `{p}:events` | stream | field `event` = event JSON, trimmed with `MAXLEN ~ eventRetention` |
/// | `{p}:dead` | stream | dead letters: `job` (payload as queued), `error` (JobError JSON), `at` (ISO-8601) |
/// | `{p}:batch:<name>` | hash | `total`, `succeeded`, `failed`, `dead`, `cancelled`; expires after the idempotency window |
/// | `{p}:workers` | sorted set | worker name → heartbeat expiry (ms) |
/// | `{p}:worker:<name>` | string | WorkerInfo JSON, expires with the heartbeat ttl |
/// | `{p}:coordinator` | hash | the registered coordinator: `checkpoint`, `cap`, `owner`, `updatedAt`; expires 7 days after its last write |
/// | `{p}:coordinator:lease` | string | the coordinator holding the lease, with a `PX` ttl |
/// | `{p}:jobstate:<id>` | hash | the coordinator's projection of a job while it runs or waits for a retry (`CoordinatorScripts.apply`); deleted when it ends, except `errors`/`errorsDropped` of a job that failed; expires after the idempotency window |
/// | `{p}:batchjobs:<state>:<name>` | sorted set | a batch's job index: the batch's jobs in `<state>` (`queued`, `running`, `retrying`), member = job id, score = its place in the batch (1, 2, … in enqueue order). The enqueue script adds each new job to `queued`; the coordinator's fold moves it on each state change (so states are as of its checkpoint). Expires with the batch's hash, extended by the fold. Sets of ended states under this name are from before `BatchJobBuckets` |
/// | `{p}:batchjobs:<state>/<bucket>:<name>` | sorted set | the same for an ended state (`succeeded`, `failed`, `dead`, `cancelled`), split by place into buckets of 128 (`BatchJobBuckets`), so each stays a listpack: about 50 bytes a job |
/// | `{p}:batchtimes:<name>` | hash | histogram of a batch's job durations (bucket → count) |
/// | `{p}:workerstate:<name>` | hash | the coordinator's projection of a worker: `state`, `done`, `errors`, `lastAt` |
/// | `{p}:workerjobs:<name>` | set | the jobs a worker has started and not ended, as the coordinator saw |
/// | `{p}:batches` | sorted set | batch name → last time the coordinator folded an event of it (ms), the newest 1000 |
/// | `{p}:throughput` | hash | unix second → jobs that ended in it, as the coordinator folded them (the last 10 minutes) |
/// | `{p}:minute:<unix minute>` | hash | jobs ended in that minute (`n`) and their durations' histogram (`b<bucket>` → count), as the coordinator folded them (expires after 2 hours) |
/// | `{p}:failures` | list | the newest 50 `failed` and `dead` event records, newest first (coordinator) |
/// | `{p}:workerstates` | sorted set | worker name → time of its latest event (ms), for listing the projections |
///
/// Scripts build the per-job and per-batch keys from the prefix, so the layout needs a standalone
/// Redis (or a cluster where every key hashes to one slot, e.g. a prefix like `{darkroom}`).
struct RedisQueueKeys: Sendable {
    /// The consumer group every stream is read through.
    static let group = "workers"

    let prefix: String

    /// The stream of ready and pending jobs of `priority` that require no capability.
    func stream(_ priority: JobPriority) -> String { stream(StreamLane(priority)) }

    /// The stream of a lane's ready and pending jobs.
    func stream(_ lane: StreamLane) -> String { "\(prefix):jobs:\(lane.token)" }

    /// The three streams of jobs that require nothing, in reading order (high, normal, low).
    var streams: [String] { StreamLane.plain.map(stream) }

    /// The set of capability lanes' tokens.
    var lanes: String { "\(prefix):lanes" }

    var delayed: String { "\(prefix):delayed" }
    var events: String { "\(prefix):events" }
    var dead: String { "\(prefix):dead" }
    var workers: String { "\(prefix):workers" }
    var coordinator: String { "\(prefix):coordinator" }
    var coordinatorLease: String { "\(prefix):coordinator:lease" }
    var workerStates: String { "\(prefix):workerstates" }
    var batches: String { "\(prefix):batches" }
    var throughput: String { "\(prefix):throughput" }
    var failures: String { "\(prefix):failures" }
    func minute(_ unixMinute: Int64) -> String { "\(prefix):minute:\(unixMinute)" }

    func marker(_ id: JobID) -> String { "\(prefix):job:\(id.rawValue)" }
    func batch(_ name: String) -> String { "\(prefix):batch:\(name)" }
    func worker(_ name: String) -> String { "\(prefix):worker:\(name)" }
    func jobState(_ id: JobID) -> String { "\(prefix):jobstate:\(id.rawValue)" }
    /// The job index of `batch`'s jobs in `state`.
    func batchJobs(_ state: String, _ batch: String) -> String { "\(prefix):batchjobs:\(state):\(batch)" }
    /// One bucket of the job index of `batch`'s ended jobs in `state` (`BatchJobBuckets`).
    func batchJobs(_ state: String, bucket: Int64, _ batch: String) -> String { "\(prefix):batchjobs:\(state)/\(bucket):\(batch)" }
    func batchTimes(_ name: String) -> String { "\(prefix):batchtimes:\(name)" }
    func workerState(_ name: String) -> String { "\(prefix):workerstate:\(name)" }
    func workerJobs(_ name: String) -> String { "\(prefix):workerjobs:\(name)" }

    /// The lane whose stream `key` is, or nil for another key.
    func lane(ofStream key: String) -> StreamLane? {
        let head = "\(prefix):jobs:"
        guard key.hasPrefix(head) else { return nil }
        return StreamLane(token: key.dropFirst(head.count))
    }
}

/// A delivery tag of the Redis driver: `<lane token> <stream entry id>`, e.g.
/// `high 1700000000000-0` or `normal/output-name 1700000000000-0`.
enum StreamTag {
    static func make(_ lane: StreamLane, _ entryID: String) -> DeliveryTag {
        DeliveryTag(rawValue: "\(lane.token) \(entryID)")
    }

    /// The lane and entry id of a tag this driver made, or nil for anything else.
    static func parse(_ tag: DeliveryTag) -> (lane: StreamLane, entryID: String)? {
        let parts = tag.rawValue.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, let lane = StreamLane(token: parts[0]), StreamID.isValid(parts[1]) else { return nil }
        return (lane, String(parts[1]))
    }
}

/// Stream entry ids (`<ms>-<seq>`).
enum StreamID {
    /// Whether `text` is `<digits>-<digits>`, each half fitting 64 bits as Redis requires (so it can
    /// be sent to Redis as an id: Redis answers an out-of-range one with an error, which would read
    /// as Redis failing rather than as a bad cursor or tag).
    static func isValid<S: StringProtocol>(_ text: S) -> Bool {
        let halves = text.split(separator: "-", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return false }
        return halves.allSatisfy { half in
            !half.isEmpty && half.utf8.count <= 20 && half.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                && UInt64(half) != nil
        }
    }

    /// The millisecond part of a valid id.
    static func milliseconds<S: StringProtocol>(_ text: S) -> Int64? {
        guard let dash = text.firstIndex(of: "-") else { return nil }
        return Int64(text[..<dash])
    }
}
