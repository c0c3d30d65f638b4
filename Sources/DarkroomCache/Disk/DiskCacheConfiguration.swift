extension DiskCache {
    /// Limits and policies of a disk cache. Every process sharing a directory should use the same
    /// values (any process's sweep enforces its own limits on everyone's entries).
    public struct Configuration: Sendable, Equatable {
        /// Most bytes (sum of entry file sizes) the results area keeps after a sweep.
        public var resultsLimitBytes: Int
        /// Most bytes the originals area keeps after a sweep.
        public var originalsLimitBytes: Int
        /// An entry not used for this long is expired: a lookup misses and a sweep deletes it.
        /// Every hit extends it (Kingfisher's default, "extend on access"). nil: no expiry, only
        /// the size limits.
        public var timeToLive: Duration?
        /// A sweep that finds an area over its limit evicts down to this fraction of the limit,
        /// so the next few writes do not immediately need another sweep.
        public var lowWaterFraction: Double
        /// A temporary file untouched for this long belongs to a writer that died; sweeps delete
        /// it. Younger ones may still be being written by another process (on another host).
        public var temporaryFileGracePeriod: Duration
        /// A hit refreshes the entry's modification time (its recency) only when that is older
        /// than this, so a hot entry costs one metadata write per interval, not one per hit.
        /// nil: the smaller of 60 s and 1/100 of the time to live.
        public var recencyRefreshInterval: Duration?
        /// `fsync` each entry (and its directory) before and after the rename. Off by default:
        /// entries can always be made again; on NFS `close` already commits the data to the
        /// server before the rename; and on a local disk the only risk is an empty or truncated
        /// newest entry after a power cut, which reads as a miss (empty) or fails to decode.
        public var durableWrites: Bool
        /// Sweeps run by the writers themselves, so limits hold without a cron job; nil turns
        /// them off (then run `darkroom cache prune` or call `sweep()` yourself).
        public var automaticSweep: AutomaticSweep?

        public init(
            resultsLimitBytes: Int = 10 << 30,
            originalsLimitBytes: Int = 10 << 30,
            timeToLive: Duration? = .seconds(7 * 86_400),
            lowWaterFraction: Double = 0.9,
            temporaryFileGracePeriod: Duration = .seconds(600),
            recencyRefreshInterval: Duration? = nil,
            durableWrites: Bool = false,
            automaticSweep: AutomaticSweep? = AutomaticSweep()
        ) {
            self.resultsLimitBytes = resultsLimitBytes
            self.originalsLimitBytes = originalsLimitBytes
            self.timeToLive = timeToLive
            self.lowWaterFraction = lowWaterFraction
            self.temporaryFileGracePeriod = temporaryFileGracePeriod
            self.recencyRefreshInterval = recencyRefreshInterval
            self.durableWrites = durableWrites
            self.automaticSweep = automaticSweep
        }

        /// The byte limit of `area`.
        public func limitBytes(for area: CacheArea) -> Int {
            switch area {
            case .originals: return originalsLimitBytes
            case .results: return resultsLimitBytes
            }
        }

        /// The interval actually used to rate-limit recency refreshes.
        var effectiveRefreshInterval: Duration {
            if let recencyRefreshInterval { return recencyRefreshInterval }
            guard let timeToLive else { return .seconds(60) }
            return min(.seconds(60), timeToLive / 100)
        }

        func validate() throws(CacheError) {
            guard resultsLimitBytes > 0, originalsLimitBytes > 0 else {
                throw .invalidArgument("cache limits must be positive (results \(resultsLimitBytes), originals \(originalsLimitBytes) bytes)")
            }
            guard lowWaterFraction > 0, lowWaterFraction <= 1 else {
                throw .invalidArgument("lowWaterFraction must be in (0, 1] (got \(lowWaterFraction))")
            }
            if let timeToLive, timeToLive <= .zero { throw .invalidArgument("timeToLive must be positive") }
        }
    }

    /// When a writing process sweeps an area on its own.
    ///
    /// A process sweeps an area after it has written `writtenFraction` of that area's limit since
    /// its last sweep, or when `interval` has passed since then and it wrote anything at all. Before
    /// sweeping it looks at `<area>/.last-sweep`: when any process on any host began a sweep of
    /// the area less than `minimumSpacing` ago, it skips (that sweep covers its writes too), so a
    /// fleet of writers does not scan the volume in a stampede. Sweeps run on a background thread.
    public struct AutomaticSweep: Sendable, Equatable {
        public var writtenFraction: Double
        public var interval: Duration
        public var minimumSpacing: Duration
        /// Run the sweep on its own thread (default) rather than inside the `store` that
        /// triggered it.
        public var inBackground: Bool

        public init(
            writtenFraction: Double = 0.02, interval: Duration = .seconds(300),
            minimumSpacing: Duration = .seconds(10), inBackground: Bool = true
        ) {
            self.writtenFraction = writtenFraction
            self.interval = interval
            self.minimumSpacing = minimumSpacing
            self.inBackground = inBackground
        }
    }

    /// What the automatic sweeps of this process did (for metrics and tests).
    public struct AutomaticSweepActivity: Sendable, Equatable {
        /// Sweeps this process ran (others may have run theirs meanwhile).
        public var sweeps = 0
        /// Sweeps that failed (an unreadable directory, a read-only volume); the next one retries.
        public var failedSweeps = 0
        /// Entries and temporary files they deleted, and the bytes.
        public var removedEntries = 0
        public var removedBytes = 0

        public init() {}
    }
}
