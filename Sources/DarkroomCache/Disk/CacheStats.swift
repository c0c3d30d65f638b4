/// A snapshot of a cache directory, from a scan, plus hit and miss counts where known.
public struct CacheStats: Sendable, Equatable {
    /// One area's numbers.
    public struct Area: Sendable, Equatable {
        public var area: CacheArea
        public var entries = 0
        /// Sum of entry file sizes (apparent sizes; the volume's block rounding comes on top).
        public var bytes = 0
        /// Temporary files: writes in progress, or left by writers that died.
        public var temporaryFiles = 0
        public var temporaryBytes = 0
        /// Time since the least recently used entry was last used (written or hit).
        public var oldestEntryAge: Duration?
        /// Time since the most recently used entry was last used.
        public var newestEntryAge: Duration?
        /// Lookups that found an entry / found none, summed over every process that shares the
        /// directory, for the statistics files still kept (about the last week). Approximate.
        public var hits = 0
        public var misses = 0

        public init(area: CacheArea) { self.area = area }

        /// hits / (hits + misses), or nil when no lookup was counted.
        public var hitRatio: Double? { hits + misses == 0 ? nil : Double(hits) / Double(hits + misses) }
    }

    public var areas: [Area]

    public init(areas: [Area]) { self.areas = areas }

    public func area(_ area: CacheArea) -> Area? { areas.first { $0.area == area } }

    public var entries: Int { areas.reduce(0) { $0 + $1.entries } }
    public var bytes: Int { areas.reduce(0) { $0 + $1.bytes } }
    public var hits: Int { areas.reduce(0) { $0 + $1.hits } }
    public var misses: Int { areas.reduce(0) { $0 + $1.misses } }
    public var hitRatio: Double? { hits + misses == 0 ? nil : Double(hits) / Double(hits + misses) }
    public var oldestEntryAge: Duration? { areas.compactMap(\.oldestEntryAge).max() }
}
