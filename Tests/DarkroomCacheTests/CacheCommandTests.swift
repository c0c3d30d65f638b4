import DarkroomCache
import Foundation
import Testing

@Suite("darkroom cache stats and prune, run as real processes")
struct CacheCommandTests {
    @Test("Without --cache and without DARKROOM_CACHE_DIR, cache commands print one line and exit 2")
    func missingDirectory() throws {
        for command in ["stats", "prune"] {
            let run = try CacheTestKit.run(["cache", command], environment: ["DARKROOM_CACHE_DIR": nil])
            #expect(run.status == 2)
            #expect(run.error == "darkroom: no cache directory: pass --cache DIR or set DARKROOM_CACHE_DIR\n")
        }
        var run = try CacheTestKit.run(["cache", "stats", "--cache", "/nonexistent/darkroom-cache"])
        #expect(run.status == 2)
        #expect(run.error == "darkroom: /nonexistent/darkroom-cache: no such cache directory\n")

        // A directory that is not a cache is reported, not turned into one.
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        run = try CacheTestKit.run(["cache", "prune", "--cache", directory, "--max-size", "0"])
        #expect(run.status == 2)
        #expect(run.error.contains("not a darkroom cache"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("stats --json reports entries, bytes, oldest age and the hit ratio flushed by other processes")
    func statsJSON() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        do {
            let cache = try DiskCache(directory: directory, configuration: CacheTestKit.configuration())
            try cache.store(CacheTestKit.value(1, count: 1000), for: "a", in: .results)
            try cache.store(CacheTestKit.value(2, count: 3000), for: "b", in: .results)
            try cache.store(CacheTestKit.value(3, count: 5000), for: "src", in: .originals)
            try CacheTestKit.age(cache.path(for: "src", in: .originals), secondsAgo: 2 * 86_400)
            _ = try cache.data(for: "a", in: .results)  // hit
            _ = try cache.data(for: "a", in: .results)  // hit
            _ = try cache.data(for: "b", in: .results)  // hit
            _ = try cache.data(for: "missing", in: .results)  // miss
            _ = try cache.data(for: "missing", in: .originals)
            cache.flushStatistics()
        }
        // Found through the environment variable this time.
        let run = try CacheTestKit.run(["cache", "stats", "--json"], environment: ["DARKROOM_CACHE_DIR": directory])
        #expect(run.status == 0, "\(run.error)")
        let record = try CacheTestKit.json(run.output)
        #expect(record["entries"] as? Int == 3)
        #expect(record["bytes"] as? Int == 9000)
        #expect(record["hits"] as? Int == 3)
        #expect(record["misses"] as? Int == 2)
        #expect(record["hitRatio"] as? Double == 0.6)
        let oldest = try #require(record["oldestEntryAgeSeconds"] as? Double)
        #expect(oldest > 2 * 86_400 - 60 && oldest < 2 * 86_400 + 60)
        let areas = try #require(record["areas"] as? [String: [String: Any]])
        #expect(areas["results"]?["entries"] as? Int == 2)
        #expect(areas["results"]?["bytes"] as? Int == 4000)
        #expect(areas["results"]?["hitRatio"] as? Double == 0.75)
        #expect(areas["originals"]?["entries"] as? Int == 1)
        #expect(areas["originals"]?["hitRatio"] as? Double == 0)
    }

    @Test("stats prints a table with a row per area and the total")
    func statsTable() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let cache = try DiskCache(directory: directory, configuration: CacheTestKit.configuration())
        try cache.store(CacheTestKit.value(1, count: 2048), for: "a", in: .results)
        let run = try CacheTestKit.run(["cache", "stats", "--cache", directory])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "cache \(directory)")
        #expect(lines.contains { $0.hasPrefix("results") && $0.contains(" 1 ") && $0.contains("2.0 KiB") })
        #expect(lines.contains { $0.hasPrefix("originals") && $0.contains(" 0 ") && $0.contains("unknown") })
        #expect(lines.contains { $0.hasPrefix("total") })
    }

    @Test("prune --max-size and --older-than delete least recently used entries and report what they removed")
    func prune() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let cache = try DiskCache(directory: directory, configuration: CacheTestKit.configuration())
        for index in 0..<6 {
            try cache.store(CacheTestKit.value(index, count: 100_000), for: "k\(index)", in: .results)
            try CacheTestKit.age(cache.path(for: "k\(index)", in: .results), secondsAgo: Double(6 - index) * 86_400)
        }
        var run = try CacheTestKit.run(["cache", "prune", "--cache", directory, "--older-than", "4d12h", "--json"])
        #expect(run.status == 0, "\(run.error)")
        let record = try CacheTestKit.json(run.output)
        #expect(record["removedEntries"] as? Int == 2)  // 6 and 5 days old
        #expect(record["remainingEntries"] as? Int == 4)

        run = try CacheTestKit.run(["cache", "prune", "--cache", directory, "--max-size", "250KB"])
        #expect(run.status == 0)
        #expect(run.output == "removed 2 entries and 0 temporary files (195.3 KiB); 2 entries (195.3 KiB) remain\n")
        #expect(try cache.data(for: "k4", in: .results) != nil)
        #expect(try cache.data(for: "k5", in: .results) != nil)
        #expect(try cache.data(for: "k3", in: .results) == nil)

        run = try CacheTestKit.run(["cache", "prune", "--cache", directory, "--max-size", "lots"])
        #expect(run.status == 2)
        #expect(run.error.hasPrefix("darkroom: --max-size: 'lots' is not a size"))
        run = try CacheTestKit.run(["cache", "prune", "--cache", directory, "--older-than", "7"])
        #expect(run.status == 2)
        #expect(run.error.contains("a unit is missing"))
    }
}
