import DarkroomSystem
import Glibc

/// Expiry, LRU eviction and temporary-file cleanup for a cache directory.
///
/// Safe with any number of concurrent sweepers and writers on any number of hosts: every sweeper
/// works from its own scan, evicts oldest-first, re-checks an entry's modification time right
/// before deleting it (an entry used or rewritten since the scan is kept), and treats an entry
/// that is already gone as evicted by someone else. Concurrent sweepers therefore converge on the
/// same low-water mark instead of each deleting their own share.
struct SweepEngine: Sendable {
    let layout: CacheLayout
    let configuration: DiskCache.Configuration

    /// Enforces the configured time to live and limits on `areas`.
    func sweep(_ areas: [CacheArea], now: Int64) throws(CacheError) -> SweepReport {
        var reports: [SweepReport.Area] = []
        for area in areas {
            var scan = try AreaScanner.scan(area, layout: layout)
            var report = SweepReport.Area(area: area)
            let inFlight = try removeStaleTemporaries(&scan, report: &report, now: now)
            if let timeToLive = configuration.timeToLive {
                try expire(&scan.entries, notUsedFor: timeToLive.saturatingNanoseconds, now: now) {
                    report.expiredEntries += 1
                    report.expiredBytes += Int($0.size)
                }
            }
            let limit = Int64(configuration.limitBytes(for: area))
            let target = Int64(Double(limit) * configuration.lowWaterFraction)
            let remaining = try evict(&scan.entries, inFlightBytes: inFlight, limit: limit, target: target) {
                report.evictedEntries += 1
                report.evictedBytes += Int($0.size)
            }
            report.remainingEntries = scan.entries.count
            report.remainingBytes = Int(remaining)
            reports.append(report)
        }
        return SweepReport(areas: reports)
    }

    /// Deletes entries of both areas not used for `olderThan`, then least recently used entries
    /// (of either area) until the whole cache is at most `maxBytes`: an exact target, no low-water.
    func prune(maxBytes: Int?, olderThan: Duration?, now: Int64) throws(CacheError) -> SweepReport {
        var reports: [SweepReport.Area] = []
        var all: [ScannedEntry] = []
        var inFlight: Int64 = 0
        for area in CacheArea.allCases {
            var scan = try AreaScanner.scan(area, layout: layout)
            var report = SweepReport.Area(area: area)
            inFlight += try removeStaleTemporaries(&scan, report: &report, now: now)
            if let olderThan {
                try expire(&scan.entries, notUsedFor: olderThan.saturatingNanoseconds, now: now) {
                    report.expiredEntries += 1
                    report.expiredBytes += Int($0.size)
                }
            }
            all += scan.entries
            reports.append(report)
        }
        if let maxBytes {
            let limit = Int64(maxBytes)
            _ = try evict(&all, inFlightBytes: inFlight, limit: limit, target: limit) { entry in
                guard let index = reports.firstIndex(where: { $0.area == entry.area }) else { return }
                reports[index].evictedEntries += 1
                reports[index].evictedBytes += Int(entry.size)
            }
        }
        // Recount what is left per area (eviction above spans both areas).
        for index in reports.indices {
            let area = reports[index].area
            let left = all.filter { $0.area == area }
            reports[index].remainingEntries = left.count
            reports[index].remainingBytes = Int(left.reduce(0) { $0 + $1.size })
        }
        return SweepReport(areas: reports)
    }

    /// Deletes temporary files untouched for the grace period; returns the bytes of the younger
    /// ones (writes in progress, which count against the limit: they are about to be entries).
    private func removeStaleTemporaries(_ scan: inout AreaScan, report: inout SweepReport.Area, now: Int64) throws(CacheError) -> Int64 {
        report.scannedEntries = scan.entries.count
        let grace = configuration.temporaryFileGracePeriod.saturatingNanoseconds
        var inFlight: Int64 = 0
        for temporary in scan.temporaries {
            guard now &- temporary.modified > grace else {
                inFlight += temporary.size
                continue
            }
            if unlink(temporary.path) == 0 {
                report.removedTemporaryFiles += 1
                report.removedTemporaryBytes += Int(temporary.size)
            } else if errno != ENOENT {
                throw .system("remove a stale temporary file", path: temporary.path, errno: errno)
            }
        }
        report.scannedBytes = Int(scan.entryBytes + inFlight)
        return inFlight
    }

    /// Deletes the entries whose last use is more than `age` nanoseconds ago.
    private func expire(
        _ entries: inout [ScannedEntry], notUsedFor age: Int64, now: Int64,
        removed: (ScannedEntry) -> Void
    ) throws(CacheError) {
        var kept: [ScannedEntry] = []
        kept.reserveCapacity(entries.count)
        for entry in entries {
            guard now &- entry.modified > age else {
                kept.append(entry)
                continue
            }
            switch try remove(entry) {
            case .removed: removed(entry)
            case .gone: break
            case .changed(let current): kept.append(current)
            }
        }
        entries = kept
    }

    /// When `entries` plus `inFlightBytes` exceed `limit`, deletes the least recently used entries
    /// until they are at most `target`. Returns the bytes left; `entries` keeps the survivors.
    private func evict(
        _ entries: inout [ScannedEntry], inFlightBytes: Int64, limit: Int64, target: Int64,
        removed: (ScannedEntry) -> Void
    ) throws(CacheError) -> Int64 {
        var total = inFlightBytes + entries.reduce(0) { $0 + $1.size }
        guard total > limit else { return total }
        entries.sort { $0.modified < $1.modified }
        var kept: [ScannedEntry] = []
        var index = 0
        while index < entries.count && total > target {
            let entry = entries[index]
            index += 1
            switch try remove(entry) {
            case .removed:
                total -= entry.size
                removed(entry)
            case .gone:
                total -= entry.size  // another sweeper evicted it: it no longer counts either way
            case .changed(let current):
                total += current.size - entry.size  // used since the scan: no longer least recent
                kept.append(current)
            }
        }
        entries = kept + entries[index...]
        return total
    }

    private enum Removal {
        case removed
        case gone
        case changed(ScannedEntry)
    }

    /// Deletes `entry` unless it changed since the scan (a hit refreshed it, or a writer replaced it).
    private func remove(_ entry: ScannedEntry) throws(CacheError) -> Removal {
        let path = layout.entryPath(entry.name, in: entry.area)
        var info = stat()
        guard lstat(path, &info) == 0 else { return .gone }
        let modified = POSIX.modificationTime(info)
        if modified != entry.modified {
            var current = entry
            current.modified = modified
            current.size = Int64(info.st_size)
            return .changed(current)
        }
        guard unlink(path) == 0 else {
            if errno == ENOENT { return .gone }
            throw .system("evict", path: path, errno: errno)
        }
        return .removed
    }
}
