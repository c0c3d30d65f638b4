/// What a sweep or prune found and removed.
public struct SweepReport: Sendable, Equatable {
    /// The outcome for one area.
    public struct Area: Sendable, Equatable {
        public var area: CacheArea
        /// Entries and bytes (entries plus writes in progress) found by the scan.
        public var scannedEntries = 0
        public var scannedBytes = 0
        /// Entries deleted because they were not used within the time to live (or `--older-than`).
        public var expiredEntries = 0
        public var expiredBytes = 0
        /// Least recently used entries deleted to bring the area under its limit.
        public var evictedEntries = 0
        public var evictedBytes = 0
        /// Temporary files of dead writers, deleted after the grace period.
        public var removedTemporaryFiles = 0
        public var removedTemporaryBytes = 0
        /// What is left, as far as this sweep knows (other processes keep writing meanwhile).
        public var remainingEntries = 0
        public var remainingBytes = 0

        public init(area: CacheArea) { self.area = area }
    }

    public var areas: [Area]

    public init(areas: [Area]) { self.areas = areas }

    /// The report for `area`, if it was swept.
    public func area(_ area: CacheArea) -> Area? { areas.first { $0.area == area } }

    /// Entries deleted (expired and evicted) in all areas.
    public var removedEntries: Int { areas.reduce(0) { $0 + $1.expiredEntries + $1.evictedEntries } }
    /// Bytes of entries and temporary files deleted in all areas.
    public var removedBytes: Int {
        areas.reduce(0) { $0 + $1.expiredBytes + $1.evictedBytes + $1.removedTemporaryBytes }
    }
    public var removedTemporaryFiles: Int { areas.reduce(0) { $0 + $1.removedTemporaryFiles } }
    public var remainingEntries: Int { areas.reduce(0) { $0 + $1.remainingEntries } }
    public var remainingBytes: Int { areas.reduce(0) { $0 + $1.remainingBytes } }
}
