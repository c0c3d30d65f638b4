import DarkroomSystem
import Glibc

/// A directory of cached originals and results that many processes on many hosts share (a local
/// disk, NFS, CephFS), with atomic writes, a size limit per area that holds, LRU eviction that
/// works on `noatime` volumes, and expiry.
///
/// - Entries are the stored bytes exactly, at `DIR/<area>/ab/cd/<sha256 of key>`.
/// - `store` writes a temporary file in the entry's own directory and renames it into place:
///   readers see the old entry or the new one, never part of one; a crash leaves only a
///   `.tmp-*` file, which sweeps delete once it is older than the grace period.
/// - Recency is the entry's modification time, set on write and refreshed by hits (rate-limited),
///   so LRU does not depend on atime. Expiry is time since last use ("extend on access").
/// - Limits hold after every sweep; writers sweep on their own (see `AutomaticSweep`).
///
/// All methods are blocking file I/O: call them from a thread pool, not the cooperative pool.
public final class DiskCache: Sendable {
    /// The cache directory, as given (less trailing slashes).
    public let directory: String
    public let configuration: Configuration

    private let layout: CacheLayout
    private let engine: SweepEngine
    private let statistics: HitStatistics
    private let automaticSweeper: AutomaticSweeper?
    /// The calls entries are written and removed through (tests inject faults here).
    private let fileSystem: any FileSystemCalls

    /// Opens the cache at `directory`, creating the directory and its layout when missing. Many
    /// processes may do this at once. Throws `cache.layout` when the directory holds a cache of
    /// another layout version, and `cache.invalid-argument` for a configuration that cannot work.
    public init(
        directory: String, configuration: Configuration = .init(), fileSystem: any FileSystemCalls = GlibcFileSystemCalls()
    ) throws(CacheError) {
        try configuration.validate()
        self.fileSystem = fileSystem
        layout = CacheLayout(root: directory)
        self.directory = layout.root
        self.configuration = configuration
        try layout.prepare()
        let engine = SweepEngine(layout: layout, configuration: configuration)
        self.engine = engine
        statistics = HitStatistics(directory: layout.statisticsDirectory)
        automaticSweeper = configuration.automaticSweep.map { AutomaticSweeper(policy: $0, engine: engine) }
    }

    /// True when `directory` already holds a cache (its VERSION file exists), of any layout version.
    public static func isCache(_ directory: String) -> Bool {
        if case .success(let info) = POSIX.status(CacheLayout(root: directory).versionFile) { return POSIX.isRegularFile(info) }
        return false
    }

    deinit {
        statistics.flush()
    }

    /// The bytes stored for `key`, or nil on a miss (no entry, expired, or an empty leftover of a
    /// power cut). A hit refreshes the entry's recency when it is older than the refresh interval.
    public func data(for key: String, in area: CacheArea) throws(CacheError) -> [UInt8]? {
        let now = POSIX.now()
        let outcome = try EntryIO.read(
            path(for: key, in: area), now: now,
            timeToLive: configuration.timeToLive?.saturatingNanoseconds,
            refreshAfter: configuration.effectiveRefreshInterval.saturatingNanoseconds)
        switch outcome {
        case .hit(let bytes):
            statistics.record(hit: true, in: area, now: now)
            return bytes
        case .miss, .expired, .empty:
            statistics.record(hit: false, in: area, now: now)
            return nil
        }
    }

    /// Stores `bytes` for `key` atomically, replacing any entry. Throws `cache.disk-full`
    /// (transient) when the volume or quota is full, `cache.io` when a write, `fsync` or `close`
    /// fails; either way the key keeps its previous entry (or none) and no temporary file stays.
    public func store(_ bytes: [UInt8], for key: String, in area: CacheArea) throws(CacheError) {
        let name = EntryName(key: key)
        try EntryIO.write(
            bytes, to: layout.entryPath(name, in: area), directory: layout.leafDirectory(name, in: area),
            durable: configuration.durableWrites, fileSystem: fileSystem)
        automaticSweeper?.didWrite(bytes.count, into: area, now: POSIX.now())
    }

    /// Where the entry for `key` lives (whether or not it exists): `DIR/<area>/ab/cd/<sha256>`.
    public func path(for key: String, in area: CacheArea) -> String {
        layout.entryPath(EntryName(key: key), in: area)
    }

    /// Deletes the entry for `key` (e.g. one that failed to decode); fine when there is none.
    public func removeValue(for key: String, in area: CacheArea) throws(CacheError) {
        let path = path(for: key, in: area)
        do throws(Errno) { try fileSystem.remove(path) } catch {
            if error.code != ENOENT && error.code != ENOTDIR { throw .system("remove", path: path, errno: error.code) }
        }
    }

    /// Expires entries by the time to live, evicts least recently used entries from each area
    /// over its limit down to the low-water mark, deletes stale temporary files and old
    /// statistics. Safe to run in many processes at once.
    @discardableResult
    public func sweep() throws(CacheError) -> SweepReport {
        let now = POSIX.now()
        for area in CacheArea.allCases { layout.stampSweepMarker(area) }
        statistics.removeOldFiles(now: now)
        return try engine.sweep(CacheArea.allCases, now: now)
    }

    /// Deletes entries not used for `olderThan`, then least recently used entries of either area
    /// until the whole cache holds at most `maxBytes`; stale temporary files always. With both nil
    /// only temporary files are cleaned. (`darkroom cache prune`.)
    @discardableResult
    public func prune(maxBytes: Int?, olderThan: Duration?) throws(CacheError) -> SweepReport {
        if let maxBytes, maxBytes < 0 { throw .invalidArgument("--max-size must not be negative") }
        if let olderThan, olderThan < .zero { throw .invalidArgument("--older-than must not be negative") }
        let now = POSIX.now()
        statistics.removeOldFiles(now: now)
        return try engine.prune(maxBytes: maxBytes, olderThan: olderThan, now: now)
    }

    /// Entries, bytes and ages per area from a scan, with the hit and miss counts of every process
    /// that flushed them (see `flushStatistics`) plus this one's.
    public func stats() throws(CacheError) -> CacheStats {
        let now = POSIX.now()
        let totals = statistics.totals()
        var areas: [CacheStats.Area] = []
        for area in CacheArea.allCases {
            let scan = try AreaScanner.scan(area, layout: layout)
            var stats = CacheStats.Area(area: area)
            stats.entries = scan.entries.count
            stats.bytes = Int(scan.entryBytes)
            stats.temporaryFiles = scan.temporaries.count
            stats.temporaryBytes = Int(scan.temporaries.reduce(0) { $0 + $1.size })
            if let oldest = scan.entries.min(by: { $0.modified < $1.modified }) {
                stats.oldestEntryAge = .nanoseconds(max(0, now &- oldest.modified))
            }
            if let newest = scan.entries.max(by: { $0.modified < $1.modified }) {
                stats.newestEntryAge = .nanoseconds(max(0, now &- newest.modified))
            }
            stats.hits = totals[area]?.hits ?? 0
            stats.misses = totals[area]?.misses ?? 0
            areas.append(stats)
        }
        return CacheStats(areas: areas)
    }

    /// What this process's automatic sweeps have done (zero when they are off).
    public var automaticSweepActivity: AutomaticSweepActivity {
        automaticSweeper?.activity ?? AutomaticSweepActivity()
    }

    /// Writes this process's hit and miss counts to the shared statistics now (it also happens
    /// every 10 s during lookups, and when the cache is deinitialised). Call before exiting.
    public func flushStatistics() {
        statistics.flush()
    }
}
