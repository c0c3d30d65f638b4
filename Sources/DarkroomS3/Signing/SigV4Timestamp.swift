import Glibc

/// The instant a request is signed at, as SigV4 writes it: `20150830T123600Z` (`x-amz-date`)
/// and its day `20150830` (the credential scope). Tests fix it; requests take the clock's.
public struct SigV4Timestamp: Sendable, Hashable {
    /// `YYYYMMDDTHHMMSSZ`, UTC.
    public let amzDate: String

    /// The instant `epochSeconds` after 1970-01-01T00:00:00Z.
    public init(epochSeconds: Int) {
        var seconds = time_t(epochSeconds)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        amzDate =
            "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// The wall clock now. SigV4 needs the real time: S3 refuses a request more than 15 minutes
    /// from its own clock (`RequestTimeTooSkewed`).
    public static var now: SigV4Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return SigV4Timestamp(epochSeconds: Int(spec.tv_sec))
    }

    /// `YYYYMMDD`.
    public var day: String { String(amzDate.prefix(8)) }
}
