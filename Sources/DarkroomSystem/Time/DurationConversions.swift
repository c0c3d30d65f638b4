import Glibc

/// `Duration` in the units C calls, JSON records and messages want. `Duration` keeps seconds and
/// attoseconds apart; every conversion here spells out the rounding and the overflow rule once.
extension Duration {
    /// Seconds as a `Double` (for rates and printed times).
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Milliseconds as a `Double` (stage timings).
    public var inMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// Whole milliseconds, rounded toward zero, saturating at the `Int64` limits.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds > 0 ? .max : .min }
        let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        if overflow2 { return seconds > 0 ? .max : .min }
        return sum
    }

    /// Whole nanoseconds, rounded toward zero; zero for negative durations and `Int64.max` for
    /// longer ones (a time to live of "forever" must not overflow).
    public var saturatingNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .max }
        let (sum, overflow2) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflow2 ? .max : sum
    }

    /// Whole tenths of a second, rounded toward zero, never negative (for "3.2 s" in messages).
    public var wholeTenthsOfSeconds: Int64 {
        let (seconds, attoseconds) = components
        return max(0, seconds * 10 + attoseconds / 100_000_000_000_000_000)
    }

    /// A `timespec` for `nanosleep` and friends (negative durations are not meaningful there).
    public var asTimespec: timespec {
        let (seconds, attoseconds) = components
        return timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    }

    /// The whole seconds and the microseconds below them, as a `timeval` takes them.
    public var secondsAndMicroseconds: (seconds: Int64, microseconds: Int64) {
        let (seconds, attoseconds) = components
        return (seconds, attoseconds / 1_000_000_000_000)
    }
}

extension Duration {
    /// `seconds` as a duration to the millisecond, saturating: NaN and negative values are zero,
    /// and anything past about 292 million years (including infinity) is `Int64.max` milliseconds.
    public static func saturatingSeconds(_ seconds: Double) -> Duration {
        guard seconds > 0 else { return .zero }
        let milliseconds = seconds * 1000
        return .milliseconds(milliseconds >= Double(Int64.max) ? .max : Int64(milliseconds))
    }
}
