extension Duration {
    /// This duration in whole nanoseconds, saturating at `Int64.max` (a TTL of "forever" must
    /// not overflow) and at zero for negative durations.
    var saturatingNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        let (sum, overflow2) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflow2 ? .max : sum
    }
}
