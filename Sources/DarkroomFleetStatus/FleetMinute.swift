import DarkroomQueue

/// One minute of the coordinator's per-minute series: how many jobs ended in it and their latency
/// (from the start of a job's last attempt to its end). The dashboard's chart opens with the last
/// hour of these (`GET /history` on the coordinator's HTTP listener).
public struct FleetMinute: Sendable, Hashable, Codable {
    /// The start of the minute.
    public var at: Timestamp
    /// Jobs that ended in the minute: succeeded, failed for good, dead or cancelled.
    public var ended: Int
    /// How many of them had a known start (a job cancelled before any worker took it has none).
    public var timed: Int
    /// Latency percentiles of the timed ones, in milliseconds; absent when none was timed.
    public var p50Ms: Double?
    public var p95Ms: Double?
    /// Final failures (`failed` that will not be retried, and `dead`) by error code.
    public var failures: [String: Int]
    /// Failures that will be retried, by error code.
    public var retries: [String: Int]

    public init(
        at: Timestamp, ended: Int, timed: Int, p50Ms: Double?, p95Ms: Double?, failures: [String: Int] = [:],
        retries: [String: Int] = [:]
    ) {
        self.at = at
        self.ended = ended
        self.timed = timed
        self.p50Ms = p50Ms
        self.p95Ms = p95Ms
        self.failures = failures
        self.retries = retries
    }

    /// A minute from its stored hash: `n` → jobs ended, `b<bucket>` → timed jobs per
    /// `LatencyHistogram` bucket, `f:<code>` / `r:<code>` → final / retried failures with that
    /// code. Fields it does not know are ignored.
    public init(unixMinute: Int64, fields: [String: Int]) {
        var buckets: [Int: Int] = [:]
        var failures: [String: Int] = [:]
        var retries: [String: Int] = [:]
        for (name, n) in fields where n > 0 {
            if name.hasPrefix("f:") {
                failures[String(name.dropFirst(2)), default: 0] += n
            } else if name.hasPrefix("r:") {
                retries[String(name.dropFirst(2)), default: 0] += n
            } else if name.hasPrefix("b"), let bucket = Int(name.dropFirst()) {
                buckets[bucket, default: 0] += n
            }
        }
        self.init(
            at: Timestamp(millisecondsSince1970: unixMinute * 60_000), ended: fields["n"] ?? 0,
            timed: buckets.values.reduce(0, +), p50Ms: LatencyHistogram.quantile(0.5, of: buckets),
            p95Ms: LatencyHistogram.quantile(0.95, of: buckets), failures: failures, retries: retries)
    }
}

/// The body of the coordinator's `GET /history`: the last minutes, oldest first, the current
/// (partial) minute last.
public struct FleetHistory: Sendable, Hashable, Codable {
    /// What latency means in `minutes`, spelled out for whoever reads the JSON.
    public var latency = "from the start of a job's last attempt to its end"
    public var minutes: [FleetMinute]

    public init(minutes: [FleetMinute]) { self.minutes = minutes }
}
