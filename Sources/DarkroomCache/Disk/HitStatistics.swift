import DarkroomSystem
import Glibc

/// Hit and miss counts shared by every process using a cache directory, kept approximately.
///
/// Each process counts in memory and, at most every `flushInterval` (and on `flush()`), adds its
/// new counts to `stats/<host>.<yyyymmdd>` under an exclusive `flock` (one file per host and UTC
/// day, so hosts never contend with each other and the number of files stays bounded). Sweeps
/// delete files older than `retention`, so the hit ratio covers about the last week. Counts are
/// approximate: a process that dies loses what it had not flushed yet, and a failed lock skips a
/// flush (the counts are kept for the next one).
final class HitStatistics: Sendable {
    static let flushInterval: Int64 = 10_000_000_000
    static let retention: Int64 = 8 * 86_400 * 1_000_000_000

    private struct Pending {
        var hits = [0, 0]
        var misses = [0, 0]
        var lastFlush: Int64
        var isEmpty: Bool { hits == [0, 0] && misses == [0, 0] }
    }

    private let directory: String
    private let host: String
    private let pending: Locked<Pending>

    init(directory: String) {
        self.directory = directory
        host = POSIX.hostName()
        pending = Locked(Pending(lastFlush: POSIX.now()))
    }

    private static func index(_ area: CacheArea) -> Int { area == .originals ? 0 : 1 }

    /// Counts one lookup; flushes when the last flush is older than `flushInterval`.
    func record(hit: Bool, in area: CacheArea, now: Int64) {
        let due = pending.withLock { state in
            if hit { state.hits[Self.index(area)] += 1 } else { state.misses[Self.index(area)] += 1 }
            return now &- state.lastFlush >= Self.flushInterval
        }
        if due { flush(now: now) }
    }

    /// Adds the counts not yet written to this host's file for today.
    func flush(now: Int64 = POSIX.now()) {
        let taken = pending.withLock { state -> Pending? in
            state.lastFlush = now
            guard !state.isEmpty else { return nil }
            let taken = state
            state.hits = [0, 0]
            state.misses = [0, 0]
            return taken
        }
        guard let taken else { return }
        if !add(taken, now: now) {
            // Keep them for the next flush rather than lose them.
            pending.withLock { state in
                for i in 0..<2 {
                    state.hits[i] += taken.hits[i]
                    state.misses[i] += taken.misses[i]
                }
            }
        }
    }

    /// Counts per area: every statistics file plus this process's unflushed counts.
    func totals() -> [CacheArea: (hits: Int, misses: Int)] {
        var sum = pending.withLock { $0 }
        for name in fileNames() {
            guard case .success(let text) = CacheLayout.readSmallFile("\(directory)/\(name)") else { continue }
            let counts = Self.parse(text)
            for i in 0..<2 {
                sum.hits[i] += counts.hits[i]
                sum.misses[i] += counts.misses[i]
            }
        }
        var totals: [CacheArea: (hits: Int, misses: Int)] = [:]
        for area in CacheArea.allCases {
            totals[area] = (sum.hits[Self.index(area)], sum.misses[Self.index(area)])
        }
        return totals
    }

    /// Deletes statistics files not written for `retention`.
    func removeOldFiles(now: Int64) {
        for name in fileNames() {
            let path = "\(directory)/\(name)"
            if case .success(let info) = POSIX.status(path), now &- POSIX.modificationTime(info) > Self.retention {
                unlink(path)
            }
        }
    }

    private func add(_ delta: Pending, now: Int64) -> Bool {
        let path = "\(directory)/\(host).\(Self.day(now))"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o666)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_EX) == 0 else { return false }
        defer { flock(fd, LOCK_UN) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        var counts = Self.parse(count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : "")
        for i in 0..<2 {
            counts.hits[i] += delta.hits[i]
            counts.misses[i] += delta.misses[i]
        }
        let text = Array(Self.format(counts).utf8)
        // Counts only grow, so the new text is never shorter than the old: no stale tail.
        let written = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return written == text.count
    }

    private static func format(_ counts: Pending) -> String {
        "originals.hits \(counts.hits[0])\noriginals.misses \(counts.misses[0])\nresults.hits \(counts.hits[1])\nresults.misses \(counts.misses[1])\n"
    }

    /// Reads the format above; unreadable lines count as zero (the file is only approximate).
    private static func parse(_ text: String) -> Pending {
        var counts = Pending(lastFlush: 0)
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let value = Int(parts[1]), value >= 0, value < 1 << 48 else { continue }
            switch parts[0] {
            case "originals.hits": counts.hits[0] = value
            case "originals.misses": counts.misses[0] = value
            case "results.hits": counts.hits[1] = value
            case "results.misses": counts.misses[1] = value
            default: continue
            }
        }
        return counts
    }

    /// `yyyymmdd` of `now` in UTC.
    private static func day(_ now: Int64) -> String {
        var seconds = time_t(now / 1_000_000_000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let year = Int(parts.tm_year) + 1900
        let month = Int(parts.tm_mon) + 1
        let day = Int(parts.tm_mday)
        return String(year) + (month < 10 ? "0" : "") + String(month) + (day < 10 ? "0" : "") + String(day)
    }

    /// Names in the statistics directory that look like `host.yyyymmdd`.
    private func fileNames() -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let child = readdir(handle) {
            let name = withUnsafePointer(to: &child.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard !name.hasPrefix("."), let dot = name.lastIndex(of: "."),
                name[name.index(after: dot)...].count == 8
            else { continue }
            names.append(name)
        }
        return names
    }
}
