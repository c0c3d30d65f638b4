import Foundation

/// The duration histogram the coordinator keeps per batch and per minute (in its projection
/// script): buckets 10 % wide, bucket 0 holds [0, 1) ms and bucket b ≥ 1 holds [1.1^(b-1), 1.1^b) ms.
/// A quantile is the geometric middle of the bucket that holds its rank, so it is within 5 % of
/// the true value — the same answer the script gives for a batch's p50 and p95.
///
/// Latency in Darkroom has one definition: from the start of a job's last attempt (its latest
/// `started` event) to its terminal event.
public enum LatencyHistogram {
    /// The bucket of a duration in milliseconds.
    public static func bucket(ofMilliseconds milliseconds: Double) -> Int {
        milliseconds < 1 ? 0 : Int((log(milliseconds) / log(1.1)).rounded(.down)) + 1
    }

    /// The `q` quantile (0…1) in milliseconds, rounded to the microsecond; nil when the histogram is empty.
    public static func quantile(_ q: Double, of buckets: [Int: Int]) -> Double? {
        let count = buckets.values.reduce(0, +)
        guard count > 0 else { return nil }
        let rank = Int((q * Double(count)).rounded(.up))
        var seen = 0
        for (bucket, n) in buckets.sorted(by: { $0.key < $1.key }) {
            seen += n
            guard seen >= rank else { continue }
            if bucket == 0 { return 0.5 }
            return (exp((Double(bucket) - 0.5) * log(1.1)) * 1000).rounded() / 1000
        }
        return nil
    }
}
