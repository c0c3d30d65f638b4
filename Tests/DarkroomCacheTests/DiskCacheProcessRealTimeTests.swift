import DarkroomCache
import DarkroomTestSupport
import Foundation
import Glibc
import Testing

@Suite("Several darkroom processes share one cache directory safely", .realTime)
struct DiskCacheProcessRealTimeTests {
    @Test("Four processes storing and reading the same keys under a churning size limit never read a wrong or partial value")
    func concurrentProcesses() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let limit = 1_000_000
        let keys = 60
        let maxBytes = 64 * 1024
        let processes = try (1...4).map { seed in
            try CacheTestKit.startStress([
                "--cache", directory, "--keys", "\(keys)", "--seconds", "1.5",
                "--seed", "\(seed)", "--value-bytes", "64KiB", "--reads", "0.6",
                "--limit", "\(limit)", "--sweep-spacing", "200ms",
            ])
        }
        let runs = processes.map(CacheTestKit.finish)
        var totalHits = 0
        var totalWrites = 0
        var evicted = 0
        for run in runs {
            #expect(run.status == 0, "stress failed: \(run.error)")
            let counts = try CacheTestKit.json(run.output)
            #expect(counts["mismatches"] as? Int == 0)
            #expect(counts["errors"] as? Int == 0)
            totalHits += counts["hits"] as? Int ?? 0
            totalWrites += counts["writes"] as? Int ?? 0
            evicted += counts["evictedByAutomaticSweeps"] as? Int ?? 0
        }
        #expect(totalHits > 20)  // the processes really read each other's entries
        #expect(totalWrites > 20)
        #expect(evicted > 0)  // the writers' own sweeps enforced the limit while they ran

        // Every entry on disk is exactly the value of some key: nothing partial, nothing mixed.
        let expected = Dictionary(
            uniqueKeysWithValues: (0..<keys).map { index in
                (CacheTestKit.stressValue(index: index, maxBytes: maxBytes, fixedSize: false), index)
            })
        let entries = CacheTestKit.entryFiles(in: directory)
        for path in entries {
            #expect(expected[try CacheTestKit.bytes(of: path)] != nil, "\(path) holds a value no key has")
        }
        #expect(CacheTestKit.temporaryFiles(in: directory).isEmpty)

        // Whatever the writers left between their sweeps, a sweep brings the area under the limit.
        let cache = try DiskCache(directory: directory, configuration: CacheTestKit.configuration(resultsLimit: limit))
        try cache.sweep()
        #expect(try cache.stats().bytes <= limit * 105 / 100)
    }

    @Test("A process killed with SIGKILL in the middle of writing leaves no damaged entry, and a sweep cleans its temporary file")
    func killedWriter() throws {
        let directory = try CacheTestKit.makeDirectory()
        defer { CacheTestKit.remove(directory) }
        let maxBytes = 8 * 1024 * 1024
        var leftovers: [String] = []
        for _ in 0..<3 where leftovers.isEmpty {
            let process = try CacheTestKit.startStress([
                "--cache", directory, "--keys", "2", "--seconds", "20",
                "--value-bytes", "8MiB", "--fixed-size", "--reads", "0",
            ])
            // Wait for a write in progress (a temporary file), then kill the writer mid-write.
            let deadline = Date().addingTimeInterval(10)
            while CacheTestKit.temporaryFiles(in: directory).isEmpty && Date() < deadline { usleep(2000) }
            kill(process.processIdentifier, SIGKILL)
            let run = CacheTestKit.finish(process)
            #expect(run.status == SIGKILL)
            leftovers = CacheTestKit.temporaryFiles(in: directory)
        }
        #expect(!leftovers.isEmpty, "the writer was never caught mid-write")

        let cache = try DiskCache(directory: directory, configuration: CacheTestKit.configuration())
        for index in 0..<2 {
            if let value = try cache.data(for: "stress-\(index)", in: .results) {
                #expect(value == CacheTestKit.stressValue(index: index, maxBytes: maxBytes, fixedSize: true))
            }
        }
        #expect(try cache.sweep().removedTemporaryFiles == 0)  // still within the grace period
        for path in leftovers { try CacheTestKit.age(path, secondsAgo: 11 * 60) }
        #expect(try cache.sweep().removedTemporaryFiles == leftovers.count)
        #expect(CacheTestKit.temporaryFiles(in: directory).isEmpty)
        #expect(try cache.stats().area(.results)?.temporaryFiles == 0)
    }
}
