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

    public init(at: Timestamp, ended: Int, timed: Int, p50Ms: Double?, p95Ms: Double?) {
        self.at = at
        self.ended = ended
        self.timed = timed
        self.p50Ms = p50Ms
        self.p95Ms = p95Ms
    }

    /// A minute from its stored hash: `n` → jobs ended, `b<bucket>` → timed jobs per
    /// `LatencyHistogram` bucket. Fields it does not know are ignored.
    public init(unixMinute: Int64, fields: [String: Int]) {
        var buckets: [Int: Int] = [:]
        for (name, n) in fields where name.hasPrefix("b") {
            if let bucket = Int(name.dropFirst()), n > 0 { buckets[bucket, default: 0] += n }
        }
        self.init(
            at: Timestamp(millisecondsSince1970: unixMinute * 60_000), ended: fields["n"] ?? 0,
            timed: buckets.values.reduce(0, +), p50Ms: LatencyHistogram.quantile(0.5, of: buckets),
            p95Ms: LatencyHistogram.quantile(0.95, of: buckets))
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
