import DarkroomCache
import DarkroomSystem
import Foundation
import Synchronization
import Testing

@Suite("DiskCache keeps its limits with LRU eviction, expiry and automatic sweeps")
struct DiskCacheEvictionTests {
    @Test("Given five aged entries over the limit, when the oldest is read and a sweep runs, then the least recently used others go down to the low-water mark")
    func leastRecentlyUsedOrder() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let cache = try DiskCache(directory: directory, configuration: CacheTestKit.configuration(resultsLimit: 10_000))
        for index in 0..<5 {
            try cache.store(CacheTestKit.value(index, count: 3000), for: "k\(index)", in: .results)
            try CacheTestKit.age(cache.path(for: "k\(index)", in: .results), secondsAgo: Double(5 - index) * 3600)
        }
        // k0 is the oldest write, but a hit makes it the most recently used (via its mtime).
        #expect(try cache.data(for: "k0", in: .results) == CacheTestKit.value(0, count: 3000))

        let report = try cache.sweep()
        let results = try #require(report.area(.results))
        #expect(results.scannedEntries == 5)
        #expect(results.evictedEntries == 2)  // 15 000 → 12 000 → 9 000 = 90% of 10 000
        #expect(results.evictedBytes == 6000)
        #expect(results.remainingBytes == 9000)
        #expect(try cache.data(for: "k0", in: .results) != nil)
        #expect(try cache.data(for: "k1", in: .results) == nil)
        #expect(try cache.data(for: "k2", in: .results) == nil)
        #expect(try cache.data(for: "k3", in: .results) != nil)
        #expect(try cache.data(for: "k4", in: .results) != nil)
    }

    @Test("Originals and results have separate limits: a full results area never evicts originals")
    func separateLimits() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let cache = try DiskCache(
            directory: directory,
            configuration: CacheTestKit.configuration(resultsLimit: 5000, originalsLimit: 100_000))
        try cache.store(CacheTestKit.value(1, count: 20_000), for: "source", in: .originals)
        try CacheTestKit.age(cache.path(for: "source", in: .originals), secondsAgo: 86_400)
        for index in 0..<4 { try cache.store(CacheTestKit.value(index, count: 2000), for: "r\(index)", in: .results) }
        let report = try cache.sweep()
        #expect(report.area(.originals)?.evictedEntries == 0)
        #expect(report.area(.results)?.evictedEntries == 2)
        #expect((report.area(.results)?.remainingBytes ?? .max) <= 4500)
        #expect(try cache.data(for: "source", in: .originals)?.count == 20_000)
    }

    @Test("An entry not used within the time to live misses at once and is deleted by the next sweep; a hit extends it")
    func timeToLive() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let cache = try DiskCache(directory: directory, configuration: CacheTestKit.configuration(timeToLive: .seconds(3600)))
        for key in ["stale", "used", "fresh"] { try cache.store([1, 2, 3], for: key, in: .results) }
        try CacheTestKit.age(cache.path(for: "stale", in: .results), secondsAgo: 2 * 3600)
        try CacheTestKit.age(cache.path(for: "used", in: .results), secondsAgo: 50 * 60)

        #expect(try cache.data(for: "stale", in: .results) == nil)
        #expect(FileManager.default.fileExists(atPath: cache.path(for: "stale", in: .results)))  // left for the sweep
        #expect(try cache.data(for: "used", in: .results) == [1, 2, 3])
        // The hit moved "used" to now: it is 50 minutes further from expiring.
        let refreshed = try CacheTestKit.modificationDate(cache.path(for: "used", in: .results))
        #expect(abs(refreshed.timeIntervalSinceNow) < 60)

        let report = try cache.sweep()
        #expect(report.area(.results)?.expiredEntries == 1)
        #expect(!FileManager.default.fileExists(atPath: cache.path(for: "stale", in: .results)))
        #expect(try cache.data(for: "used", in: .results) != nil)
        #expect(try cache.data(for: "fresh", in: .results) != nil)
    }

    @Test("Hits refresh recency at most once per interval (60 s by default), not on every read")
    func refreshIsRateLimited() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let cache = try DiskCache(directory: directory, configuration: DiskCache.Configuration(automaticSweep: nil))
        try cache.store([7], for: "recent", in: .results)
        try cache.store([8], for: "older", in: .results)
        let recent = cache.path(for: "recent", in: .results)
        let older = cache.path(for: "older", in: .results)
        try CacheTestKit.age(recent, secondsAgo: 30)
        try CacheTestKit.age(older, secondsAgo: 120)
        let before = try CacheTestKit.modificationDate(recent)
        _ = try cache.data(for: "recent", in: .results)
        _ = try cache.data(for: "older", in: .results)
        #expect(try CacheTestKit.modificationDate(recent) == before)
        #expect(abs(try CacheTestKit.modificationDate(older).timeIntervalSinceNow) < 10)
    }

    @Test("prune --max-size evicts least recently used entries of both areas to an exact total; --older-than by last use")
    func prune() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let cache = try DiskCache(directory: directory, configuration: CacheTestKit.configuration())
        let plan: [(String, CacheArea, Double)] = [
            ("o-old", .originals, 50), ("r-old", .results, 40),
            ("o-mid", .originals, 30), ("r-mid", .results, 20), ("r-new", .results, 10),
        ]
        for (key, area, hoursAgo) in plan {
            try cache.store(CacheTestKit.value(key.count, count: 1000), for: key, in: area)
            try CacheTestKit.age(cache.path(for: key, in: area), secondsAgo: hoursAgo * 3600)
        }
        var report = try cache.prune(maxBytes: nil, olderThan: .seconds(45 * 3600))
        #expect(report.removedEntries == 1)
        #expect(report.area(.originals)?.expiredEntries == 1)
        report = try cache.prune(maxBytes: 2500, olderThan: nil)
        #expect(report.removedEntries == 2)
        #expect(report.area(.results)?.evictedEntries == 1)
        #expect(report.area(.originals)?.evictedEntries == 1)
        #expect(report.remainingBytes == 2000)
        #expect(try cache.data(for: "r-mid", in: .results) != nil)
        #expect(try cache.data(for: "r-new", in: .results) != nil)
        #expect(try cache.data(for: "o-mid", in: .originals) == nil)
    }

    @Test("Writers sweep on their own: with automatic sweeps the area never exceeds its limit by more than one sweep threshold")
    func automaticSweep() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let limit = 1_000_000
        var configuration = CacheTestKit.configuration(resultsLimit: limit)
        configuration.automaticSweep = .init(writtenFraction: 0.05, minimumSpacing: .zero, inBackground: false)
        let cache = try DiskCache(directory: directory, configuration: configuration)
        var largest = 0
        for index in 0..<200 {
            try cache.store(CacheTestKit.value(index, count: 8000), for: "k\(index)", in: .results)
            largest = max(largest, try cache.stats().bytes)
        }
        #expect(largest <= limit + 65_536 + 8000)
        #expect(largest > limit / 2)  // it did fill up
        #expect(try cache.stats().bytes <= limit + 65_536 + 8000)
        #expect(try cache.data(for: "k199", in: .results) != nil)  // the newest survive
        #expect(cache.automaticSweepActivity.sweeps >= 10)
        #expect(cache.automaticSweepActivity.removedEntries > 50)
    }

    @Test("A process skips its automatic sweep when another process swept the area within the minimum spacing")
    func sweepSpacingAcrossProcesses() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        var configuration = CacheTestKit.configuration(resultsLimit: 100_000)
        configuration.automaticSweep = .init(writtenFraction: 0.5, minimumSpacing: .seconds(3600), inBackground: false)
        // Two instances stand for two processes (on two hosts) sharing the directory.
        let first = try DiskCache(directory: directory, configuration: configuration)
        let second = try DiskCache(directory: directory, configuration: configuration)
        try first.store(CacheTestKit.value(1, count: 70_000), for: "a", in: .results)
        #expect(first.automaticSweepActivity.sweeps == 1)
        try second.store(CacheTestKit.value(2, count: 70_000), for: "b", in: .results)
        #expect(second.automaticSweepActivity.sweeps == 0)  // first's sweep a moment ago covers it
        #expect(try first.stats().bytes == 140_000)  // so the overshoot waits for the next sweep

        try CacheTestKit.age("\(directory)/results/.last-sweep", secondsAgo: 7200)
        try second.store(CacheTestKit.value(3, count: 70_000), for: "c", in: .results)
        #expect(second.automaticSweepActivity.sweeps == 1)
        #expect(try first.stats().bytes <= 90_000)
    }

    @Test("Six threads writing while two threads sweep: a sweep leaves the total within 5% of the limit, and no read is wrong")
    func concurrentWritersAndSweepers() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let limit = 300_000
        let cache = try DiskCache(directory: directory, configuration: CacheTestKit.configuration(resultsLimit: limit))
        let wrongReads = Atomic<Int>(0)
        let failures = Locked<[String]>([])
        CacheTestKit.onThreads(8) { thread in
            var random = SystemRandomNumberGenerator()
            for step in 0..<150 {
                do {
                    if thread < 6 {
                        let key = Int.random(in: 0..<120, using: &random)
                        let value = CacheTestKit.value(key, count: 2000 + key * 97)
                        if step % 2 == 0 {
                            try cache.store(value, for: "k\(key)", in: .results)
                        } else if let read = try cache.data(for: "k\(key)", in: .results), read != value {
                            wrongReads.add(1, ordering: .relaxed)
                        }
                    } else {
                        try cache.sweep()
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(wrongReads.load(ordering: .relaxed) == 0)
        let report = try cache.sweep()
        #expect((report.area(.results)?.remainingBytes ?? .max) <= limit * 105 / 100)
        #expect(try cache.stats().bytes <= limit * 105 / 100)
        #expect(try cache.stats().bytes > limit / 2)
        #expect(CacheTestKit.temporaryFiles(in: directory).isEmpty)
    }
}
