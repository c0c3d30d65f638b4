/// How the pipeline uses leases.
public struct LeaseTiming: Sendable, Hashable {
    /// How long a lease lives without renewal; a crashed holder blocks waiters at most this long.
    /// Renewed every third of it while the work runs.
    public var ttl: Duration
    /// The first wait between looks at the disk cache while another holder works; doubled after
    /// each look up to `longestPoll`.
    public var firstPoll: Duration
    public var longestPoll: Duration

    public init(
        ttl: Duration = .seconds(10), firstPoll: Duration = .milliseconds(50),
        longestPoll: Duration = .milliseconds(500)
    ) {
        // Clamped rather than trapping: a zero TTL would make every lease expire at once.
        self.ttl = max(ttl, .milliseconds(30))
        self.firstPoll = max(firstPoll, .milliseconds(1))
        self.longestPoll = max(longestPoll, self.firstPoll)
    }
}
